/**
 * The wire contract of the Contact Data API (v1), in one place.
 *
 * The vendor's specification leaves most wire details open; `docs/contract.md` fixes them and this
 * folder is its code form, one file a part (paths, enums, limits, rate limits, headers, errors, ids,
 * request bodies, answers, webhooks). Everything imports it from here, `shared/client/contract`: the
 * nodes, the triggers, the credential and the sandbox all read paths, id prefixes and patterns, field
 * names, enums, limits and body shapes from it, so a change the vendor publishes is one edit
 * (test/nodes/ContactData/shared/client/contract.singleSource.test.ts keeps it so).
 *
 * Response schemas pass unknown fields through: the API adds fields without a version bump.
 */
export * from './paths';
export * from './enums';
export * from './limits';
export * from './rateLimits';
export * from './headers';
export * from './errors';
export * from './ids';
export * from './requests';
export * from './answers';
export * from './webhooks';
