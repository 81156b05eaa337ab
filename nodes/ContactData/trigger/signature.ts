/**
 * A delivery as it arrives, accepted only with the service's Standard Webhooks signature for the
 * subscription this workflow holds; nothing of its body is read before. The signing itself is the
 * contract's `webhookSignature`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { HEADERS, WEBHOOKS, webhookSignature } from '../shared/client/contract';
import { readHeldSubscription, type HeldSubscription } from './state';

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

export interface VerifiedDelivery {
	held: HeldSubscription;
	eventId: string;
	timestamp: string;
	rawBody: Buffer;
	nowMs: number;
}

/** A header given once; a repeated header (an array) is refused, as a signature must be unambiguous. */
function singleHeaderValue(headers: IDataObject, name: string): string | undefined {
	const value = headers[name];
	return typeof value === 'string' ? value : undefined;
}

/** The delivery, when its signature is the service's; otherwise answers 401 and gives undefined. */
export async function readVerifiedDelivery(
	this: IWebhookFunctions,
): Promise<VerifiedDelivery | undefined> {
	const request = this.getRequestObject();
	const headers = this.getHeaderData() as IDataObject;
	if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	const received = {
		id: singleHeaderValue(headers, HEADERS.webhookId),
		timestamp: singleHeaderValue(headers, HEADERS.webhookTimestamp),
		signature: singleHeaderValue(headers, HEADERS.webhookSignature),
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
