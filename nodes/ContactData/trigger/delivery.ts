/** A verified delivery's body: checked against the contract and against what the user selected. */
import type { IDataObject } from 'n8n-workflow';

import { EVENT_TYPES, webhookEventSchema, type WebhookEvent } from '../shared/client/contract';
import type { SubscriptionSpec } from './parameters';

type ParsedDelivery =
	| { event: WebhookEvent; json: IDataObject }
	| { problem: string }
	/** An event of a type this node does not know (the service adds types): answered 2xx, not run. */
	| { ignored: string };

/** Parses the raw body (the signed bytes) as one event whose id is the signed `webhook-id`. */
export function parseDelivery(rawBody: Buffer | string, webhookId: string): ParsedDelivery {
	let json: unknown;
	try {
		json = JSON.parse(rawBody.toString());
	} catch {
		return { problem: 'The body is not JSON' };
	}
	// What every event has, read first, so a type added since is not refused.
	const { id, type } = (json ?? {}) as IDataObject;
	if (
		id === webhookId &&
		typeof type === 'string' &&
		!EVENT_TYPES.some((known) => known === type)
	) {
		return { ignored: `the event type ${type} is not one this node knows` };
	}
	const parsed = webhookEventSchema.safeParse(json);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return { problem: `Not an event: ${issue.path.join('.') || 'body'}: ${issue.message}` };
	}
	const event = parsed.data;
	if (event.id !== webhookId) {
		return { problem: `The event id ${event.id} differs from the webhook-id header ${webhookId}` };
	}
	const carried = event.type === 'intent' ? 'intent' : 'changes';
	if (!event[carried]) return { problem: `A ${event.type} event must carry "${carried}"` };
	return { event, json: json as IDataObject };
}

/** Why a genuine event does not start the workflow, or `undefined` when it should. */
export function ignoreReason(
	event: WebhookEvent,
	spec: SubscriptionSpec,
	minIntentScore: number,
): string | undefined {
	if (!spec.events.includes(event.type)) return `the event type ${event.type} is not selected`;
	if (spec.listIds !== null && !spec.listIds.includes(event.list_id)) {
		return `the saved list ${event.list_id} is not watched`;
	}
	if (event.intent && event.intent.score < minIntentScore) {
		return `the intent score ${event.intent.score} is below the minimum ${minIntentScore}`;
	}
	return undefined;
}
