/** Webhooks: timings, subscription and event shapes, and signatures (Standard Webhooks). */
import { createHmac } from 'node:crypto';
import { z } from 'zod';

import { contactPreviewSchema, openEnum, openObject } from './answers';
import { EVENT_TYPES } from './enums';
import { ID_PREFIXES } from './ids';
import { LIMITS } from './limits';

export const WEBHOOKS = {
	secretPrefix: 'whsec_',
	/** Signatures older or newer than this are refused. */
	toleranceSeconds: 5 * 60,
	/** A delivery without a 2xx within this time counts as failed. */
	deliveryTimeoutMs: 10_000,
} as const;

export const webhookSchema = openObject({
	id: z.string(),
	url: z.string(),
	events: z.array(openEnum(EVENT_TYPES)),
	list_ids: z.array(z.string()).nullable(),
	created_at: z.string(),
	secret: z.string().optional(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhooksPageSchema = openObject({ webhooks: z.array(webhookSchema) });
export type WebhooksPage = z.infer<typeof webhooksPageSchema>;

const changeSideSchema = openObject({
	title: z.string().nullable(),
	company: openObject({ name: z.string().nullable(), domain: z.string().nullable() }),
});

export const webhookEventSchema = openObject({
	id: z.string().startsWith(ID_PREFIXES.event),
	type: z.enum(EVENT_TYPES),
	created_at: z.string(),
	list_id: z.string(),
	contact: contactPreviewSchema,
	changes: openObject({ previous: changeSideSchema, current: changeSideSchema }).optional(),
	intent: openObject({
		topic: z.string(),
		score: z.number().min(LIMITS.intentScoreMin).max(LIMITS.intentScoreMax),
	}).optional(),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** `v1,<base64 HMAC-SHA256 over "<id>.<timestamp>.<raw body>">`, keyed by the secret's base64. */
export function webhookSignature(
	secret: string,
	webhookId: string,
	timestampSeconds: number | string,
	rawBody: string | Buffer,
): string {
	const { secretPrefix } = WEBHOOKS;
	const encoded = secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret;
	const hmac = createHmac('sha256', Buffer.from(encoded, 'base64'));
	hmac.update(`${webhookId}.${timestampSeconds}.`);
	hmac.update(rawBody);
	return `v1,${hmac.digest('base64')}`;
}
