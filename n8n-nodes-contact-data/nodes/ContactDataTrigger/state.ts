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

/**
 * The same record in this process's memory, by subscription. n8n 2.41 does not save static data
 * changed by a webhook call that starts an execution (its WorkflowRunner re-wraps the shared static
 * data object before the save, which clears the change flag), so without this a retried delivery
 * would start a second execution. Memory covers retries reaching the same n8n process (the
 * service retries for about a minute); the static data covers restarts where n8n saves it.
 */
const acceptedInMemory = new Map<string, string[]>();
/** Subscriptions whose record memory keeps (the oldest is dropped first). */
const SUBSCRIPTIONS_IN_MEMORY = 100;

function appendBounded(ids: readonly string[], eventId: string): string[] {
	return [...ids.filter((id) => id !== eventId), eventId].slice(-ACCEPTED_EVENT_IDS_KEPT);
}

export function wasEventAccepted(staticData: IDataObject, subscriptionId: string, eventId: string): boolean {
	return (
		acceptedEventIds(staticData).includes(eventId) ||
		(acceptedInMemory.get(subscriptionId)?.includes(eventId) ?? false)
	);
}

export function rememberAcceptedEvent(staticData: IDataObject, subscriptionId: string, eventId: string): void {
	// Assigned afresh (not pushed) so n8n sees the change and saves the static data.
	staticData[KEYS.acceptedEventIds] = appendBounded(acceptedEventIds(staticData), eventId);
	const inMemory = appendBounded(acceptedInMemory.get(subscriptionId) ?? [], eventId);
	acceptedInMemory.delete(subscriptionId);
	acceptedInMemory.set(subscriptionId, inMemory);
	for (const oldest of acceptedInMemory.keys()) {
		if (acceptedInMemory.size <= SUBSCRIPTIONS_IN_MEMORY) break;
		acceptedInMemory.delete(oldest);
	}
}
