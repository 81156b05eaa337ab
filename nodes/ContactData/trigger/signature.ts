/**
 * A delivery, accepted only with the held subscription's Standard Webhooks signature (the
 * contract's `webhookSignature`); nothing of its body is read before.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { HEADERS, WEBHOOKS, webhookSignature } from '../shared/client/contract';
import { readHeldSubscription } from './subscription';

/** Its headers, and its body exactly as received: the signature covers these bytes. */
type ReceivedDelivery = Record<'id' | 'timestamp' | 'signature', string | undefined> & {
	rawBody: Buffer | string | undefined;
};

export type SignatureVerdict =
	| { valid: true }
	| {
			valid: false;
			reason: 'missing_secret' | 'missing_headers' | 'stale_timestamp' | 'bad_signature';
	  };

const V1 = 'v1,';

/**
 * Verifies a delivery against the subscription's secret: a fresh timestamp (within the
 * contract's tolerance, either side of `nowSeconds`) and at least one `v1` entry of the
 * space-separated header equal to the HMAC of "<id>.<timestamp>.<raw body>", compared in constant time.
 */
export function verifyDeliverySignature(
	secret: string | undefined,
	delivery: ReceivedDelivery,
	nowSeconds: number,
): SignatureVerdict {
	if (!secret) return { valid: false, reason: 'missing_secret' };
	const { id, timestamp, signature, rawBody } = delivery;
	if (!id || !timestamp || !signature || rawBody === undefined) {
		return { valid: false, reason: 'missing_headers' };
	}
	const age = /^\d+$/.test(timestamp) ? Math.abs(nowSeconds - Number(timestamp)) : Infinity;
	if (age > WEBHOOKS.toleranceSeconds) return { valid: false, reason: 'stale_timestamp' };
	const base64 = (entry: string) => Buffer.from(entry.slice(V1.length), 'base64');
	const expected = base64(webhookSignature(secret, id, timestamp, rawBody));
	const matches = signature
		.trim()
		.split(/\s+/)
		.filter((entry) => entry.startsWith(V1))
		.map(base64)
		.some(
			(candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected),
		);
	return matches ? { valid: true } : { valid: false, reason: 'bad_signature' };
}

/** The delivery, when its signature is the service's; otherwise answers 401 and gives undefined. */
export async function readVerifiedDelivery(this: IWebhookFunctions) {
	const request = this.getRequestObject();
	const headers = this.getHeaderData() as IDataObject;
	if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	// A repeated header (an array) is refused, as a signature must be unambiguous.
	const single = (name: string) => {
		const value = headers[name];
		return typeof value === 'string' ? value : undefined;
	};
	const received = {
		id: single(HEADERS.webhookId),
		timestamp: single(HEADERS.webhookTimestamp),
		signature: single(HEADERS.webhookSignature),
		rawBody: request.rawBody as Buffer | undefined,
	};
	const nowMs = Date.now();
	const held = readHeldSubscription(this.getWorkflowStaticData('node'));
	const verdict = verifyDeliverySignature(held?.secret, received, Math.floor(nowMs / 1000));
	const { id: eventId, timestamp, rawBody } = received;
	// A valid verdict has them all; the checks say so to TypeScript.
	if (!verdict.valid || !held || !eventId || !timestamp || !rawBody) {
		this.getResponseObject()
			.status(401)
			.json({ message: `Unauthorized: ${verdict.valid ? 'missing_headers' : verdict.reason}` });
		return undefined;
	}
	return { held, eventId, timestamp, rawBody, nowMs };
}
