import { z } from 'zod';

import { openObject } from './answers';

export const ERROR_CODES = {
	invalid_request: 400,
	unauthorized: 401,
	insufficient_credits: 402,
	tier_required: 403,
	not_found: 404,
	method_not_allowed: 405,
	conflict: 409,
	too_many_ids: 413,
	rate_limited: 429,
	internal: 500,
	unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** Statuses after which an idempotent call may be sent again. */
export const TRANSIENT_STATUSES = [429, 500, 502, 503, 504] as const;

export const apiErrorBodySchema = z.object({
	error: openObject({
		code: z.string(),
		message: z.string(),
		details: z.record(z.unknown()).optional(),
	}),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
