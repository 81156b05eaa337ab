/**
 * Checks a delivery's Standard Webhooks signature. The signing itself is the contract's
 * `webhookSignature`; this file only decides whether a received signature matches it.
 */
import { timingSafeEqual } from 'node:crypto';

import { WEBHOOKS, webhookSignature } from '../shared/client/contract';

/** A delivery as received: its signed headers and raw body, any of which may be missing. */
export interface ReceivedDelivery {
	/** `webhook-id` header (the event id). */
	id: string | undefined;
	/** `webhook-timestamp` header (unix seconds). */
	timestamp: string | undefined;
	/** `webhook-signature` header: one or more space-separated `v1,<base64>` entries. */
	signature: string | undefined;
	/** The body exactly as received: the signature covers these bytes, not a re-serialisation. */
	rawBody: Buffer | string | undefined;
}

export type SignatureVerdict =
	| { valid: true }
	| {
			valid: false;
			reason: 'missing_secret' | 'missing_headers' | 'stale_timestamp' | 'bad_signature';
	  };

const SIGNATURE_VERSION = 'v1';

/** The base64 signatures of the `v1` entries of a `webhook-signature` header. */
function v1Signatures(header: string): Buffer[] {
	const signatures: Buffer[] = [];
	for (const entry of header.trim().split(/\s+/)) {
		const comma = entry.indexOf(',');
		if (comma < 0 || entry.slice(0, comma) !== SIGNATURE_VERSION) continue;
		signatures.push(Buffer.from(entry.slice(comma + 1), 'base64'));
	}
	return signatures;
}

/**
 * Verifies a delivery against the subscription's secret: a fresh timestamp (within the
 * contract's tolerance, either side of `nowSeconds`) and at least one `v1` entry equal to the
 * HMAC of "<id>.<timestamp>.<raw body>", compared in constant time.
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
	if (
		!/^\d+$/.test(timestamp) ||
		Math.abs(nowSeconds - Number(timestamp)) > WEBHOOKS.toleranceSeconds
	) {
		return { valid: false, reason: 'stale_timestamp' };
	}
	const expected = Buffer.from(
		webhookSignature(secret, id, timestamp, rawBody).slice(SIGNATURE_VERSION.length + 1),
		'base64',
	);
	const matches = v1Signatures(signature).some(
		(candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected),
	);
	return matches ? { valid: true } : { valid: false, reason: 'bad_signature' };
}
