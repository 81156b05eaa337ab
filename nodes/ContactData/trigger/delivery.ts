/**
 * A verified delivery's body: parsed and checked against the contract, matched against what the
 * user selected, and shaped into the item the workflow starts with.
 */
import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { EVENT_TYPES, webhookEventSchema, type WebhookEvent } from '../shared/client/contract';
import { eventChangeKey, jobChangeKey } from '../shared/items/changes';
import { simplifyContact } from '../shared/items/simplify';
import type { DeliveryOptions, SubscriptionSpec } from './parameters';

export type ParsedDelivery =
	| { event: WebhookEvent; json: IDataObject }
	| { problem: string }
	/** An event of a type this node does not know (the service adds types): acknowledged, not run. */
	| { unknownType: string };

/** What every event has, whatever its type: read first, so a type added since is not refused. */
const envelopeSchema = z.object({ id: z.string(), type: z.string() }).passthrough();

/** Parses the raw body (the signed bytes) as one event whose id is the signed `webhook-id`. */
export function parseDelivery(rawBody: Buffer | string, webhookId: string): ParsedDelivery {
	let json: unknown;
	try {
		json = JSON.parse(rawBody.toString());
	} catch {
		return { problem: 'The body is not JSON' };
	}
	const envelope = envelopeSchema.safeParse(json);
	if (envelope.success && envelope.data.id === webhookId && !(EVENT_TYPES as readonly string[]).includes(envelope.data.type)) {
		return { unknownType: envelope.data.type };
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
	if (event.type === 'intent' ? !event.intent : !event.changes) {
		return {
			problem: `A ${event.type} event must carry "${event.type === 'intent' ? 'intent' : 'changes'}"`,
		};
	}
	return { event, json: json as IDataObject };
}

/** Why a genuine event does not start the workflow, or `undefined` when it should. */
export function ignoreReason(
	event: WebhookEvent,
	spec: SubscriptionSpec,
	options: DeliveryOptions,
): string | undefined {
	if (!spec.events.includes(event.type)) return `the event type ${event.type} is not selected`;
	if (spec.listIds !== null && !spec.listIds.includes(event.list_id)) {
		return `the saved list ${event.list_id} is not watched`;
	}
	if (event.intent && event.intent.score < options.minIntentScore) {
		return `the intent score ${event.intent.score} is below the minimum ${options.minIntentScore}`;
	}
	return undefined;
}

/**
 * The event as the workflow's item: as delivered, or (Simplify) the event's fields and its contact
 * flattened as the Contact Data node's Simplify does, with the contact's id as `contact_id`.
 */
export function eventItem(event: WebhookEvent, json: IDataObject, simplify: boolean): IDataObject {
	const change_key = changeKeyOf(event);
	if (!simplify) return { ...json, change_key };
	// A preview has no email or LinkedIn URL: the item shows them as null all the same, as it always has.
	const { id, ...contact } = simplifyContact({ email: null, linkedin_url: null, ...event.contact });
	return {
		event_id: event.id,
		event_type: event.type,
		occurred_at: event.created_at,
		list_id: event.list_id,
		contact_id: id,
		...contact,
		...(event.changes && {
			previous_title: event.changes.previous.title,
			previous_company: event.changes.previous.company.name,
			current_title: event.changes.current.title,
			current_company: event.changes.current.company.name,
		}),
		...(event.intent && { intent_topic: event.intent.topic, intent_score: event.intent.score }),
		change_key,
	};
}

/** The change key (see changes.ts): from the change for a job or role change, else from the event. */
export function changeKeyOf(event: Pick<WebhookEvent, 'id' | 'type' | 'list_id' | 'contact' | 'changes'>): string {
	return event.changes && (event.type === 'job_change' || event.type === 'role_change')
		? jobChangeKey(event.list_id, event.contact.id, event.type, event.changes)
		: eventChangeKey(event.list_id, event.contact.id, event.type, event.id);
}

/** The event id carried by an item `eventItem` made. */
export function eventIdOfItem(item: IDataObject, simplify: boolean): string | undefined {
	const id = simplify ? item.event_id : item.id;
	return typeof id === 'string' ? id : undefined;
}
