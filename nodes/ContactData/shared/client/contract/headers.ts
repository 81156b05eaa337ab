/** The HTTP headers the API reads and writes (lower case, as Node gives them). */
export const HEADERS = {
	idempotencyKey: 'idempotency-key',
	/** "true" on an answer replayed for an Idempotency-Key; absent on a first answer. */
	idempotentReplayed: 'idempotent-replayed',
	rateLimitLimit: 'x-ratelimit-limit',
	rateLimitRemaining: 'x-ratelimit-remaining',
	/** Seconds (a number; the sandbox's scaled clock gives decimals) until a slot frees. */
	rateLimitReset: 'x-ratelimit-reset',
	retryAfter: 'retry-after',
	webhookId: 'webhook-id',
	webhookTimestamp: 'webhook-timestamp',
	webhookSignature: 'webhook-signature',
} as const;
