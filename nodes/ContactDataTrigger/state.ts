/**
 * What the trigger keeps in the node's static data (saved with the workflow, so it survives
 * restarts): the subscription it holds and the ids of the events it already started a workflow for.
 */
import type { IDataObject } from 'n8n-workflow';

export interface HeldSubscription {
	id: string;
	/** Shown by the service only when the subscription is created; without it nothing can be verified. */
	secret: string;
	/** The n8n webhook URL the subscription delivers to. */
	url: string;
}

/**
 * Accepted event ids remembered to answer retried deliveries without a second execution. The
 * service retries a delivery for about a minute, so the latest thousand cover any realistic burst
 * while keeping the workflow's static data small (about 30 kB).
 */
export const ACCEPTED_EVENT_IDS_KEPT = 1_000;

const KEYS = {
	id: 'subscriptionId',
	secret: 'subscriptionSecret',
	url: 'subscriptionUrl',
	acceptedEventIds: 'acceptedEventIds',
} as const;

export function readHeldSubscription(staticData: IDataObject): HeldSubscription | undefined {
	const id = staticData[KEYS.id];
	const secret = staticData[KEYS.secret];
	const url = staticData[KEYS.url];
	if (typeof id !== 'string' || typeof secret !== 'string' || !secret) return undefined;
	return { id, secret, url: typeof url === 'string' ? url : '' };
}

/** The id of the subscription this node last held, even when its secret is missing. */
export function readHeldSubscriptionId(staticData: IDataObject): string | undefined {
	const id = staticData[KEYS.id];
	return typeof id === 'string' && id ? id : undefined;
}

export function holdSubscription(staticData: IDataObject, subscription: HeldSubscription): void {
	staticData[KEYS.id] = subscription.id;
	staticData[KEYS.secret] = subscription.secret;
	staticData[KEYS.url] = subscription.url;
}

export function forgetSubscription(staticData: IDataObject): void {
	delete staticData[KEYS.id];
	delete staticData[KEYS.secret];
	delete staticData[KEYS.url];
}

function acceptedEventIds(staticData: IDataObject): string[] {
	const ids = staticData[KEYS.acceptedEventIds];
	return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

export function wasEventAccepted(staticData: IDataObject, eventId: string): boolean {
	return acceptedEventIds(staticData).includes(eventId);
}

export function rememberAcceptedEvent(staticData: IDataObject, eventId: string): void {
	// Assigned afresh (not pushed) so n8n sees the change and saves the static data.
	staticData[KEYS.acceptedEventIds] = [...acceptedEventIds(staticData), eventId].slice(
		-ACCEPTED_EVENT_IDS_KEPT,
	);
}
