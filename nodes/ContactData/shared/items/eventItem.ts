/** The item both triggers start a workflow with, the same from either, so a workflow can move. */
import type { IDataObject } from 'n8n-workflow';

import { jobChangeKey, keyOf, type JobSide } from './changes';
import { simplifyContact } from './simplify';

export interface ContactEvent {
	id: string;
	type: string;
	created_at: string;
	list_id: string;
	/** The contact as the account holds it: a preview (no email) when not unlocked. */
	contact: { id: string };
	changes?: { previous: JobSide; current: JobSide };
	intent?: { topic: string; score: number };
}

/**
 * As delivered (the webhook's body with every field it came with), or with Simplify its fields and
 * its contact flattened as the action node's Simplify does, the contact's id as `contact_id`.
 */
export function eventItem(
	event: ContactEvent,
	simplify: boolean,
	delivered?: IDataObject,
): IDataObject {
	const change_key = changeKeyOf(event);
	if (!simplify) return { ...(delivered ?? event), change_key };
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

/** By the change for a job or role change, else (an intent signal, a newer type) by the event. */
export function changeKeyOf(event: Omit<ContactEvent, 'created_at' | 'intent'>): string {
	return event.changes && (event.type === 'job_change' || event.type === 'role_change')
		? jobChangeKey(event.list_id, event.contact.id, event.type, event.changes)
		: keyOf([event.list_id, event.contact.id, event.type, event.id]);
}

export function eventIdOfItem(item: IDataObject, simplify: boolean): string | undefined {
	const id = simplify ? item.event_id : item.id;
	return typeof id === 'string' ? id : undefined;
}
