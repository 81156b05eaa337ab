/** The wire contract of the Contact Data API (v1), the code form of `docs/contract.md`. */
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
