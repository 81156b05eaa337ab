/**
 * A delivery as it arrives: its raw body and the signed headers, accepted only when the signature
 * is the service's for the subscription this workflow holds. Nothing of the body is read before.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { HEADERS } from '../shared/client/contract';
import { verifyDeliverySignature } from './signature';
import { readHeldSubscription, type HeldSubscription } from './state';

/** A delivery whose signature is the service's, for the subscription this workflow holds. */
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
	const rawBody = request.rawBody as Buffer | undefined;
	const eventId = singleHeaderValue(headers, HEADERS.webhookId);
	const timestamp = singleHeaderValue(headers, HEADERS.webhookTimestamp);
	const nowMs = Date.now();
	const held = readHeldSubscription(this.getWorkflowStaticData('node'));
	const signature = singleHeaderValue(headers, HEADERS.webhookSignature);
	const verdict = verifyDeliverySignature(
		held?.secret,
		{ id: eventId, timestamp, signature, rawBody },
		Math.floor(nowMs / 1000),
	);
	if (
		!verdict.valid ||
		!held ||
		eventId === undefined ||
		timestamp === undefined ||
		rawBody === undefined
	) {
		this.getResponseObject()
			.status(401)
			.json({ message: `Unauthorized: ${verdict.valid ? 'missing_headers' : verdict.reason}` });
		return undefined;
	}
	return { held, eventId, timestamp, rawBody, nowMs };
}
