/**
 * What the trigger keeps in the node's static data (saved with the workflow, so it survives
 * restarts): the subscription it holds. Nothing else: n8n 2.41 does not save static data changed
 * by a webhook call that starts an execution, and concurrent executions overwrite each other's.
 */
import type { IDataObject } from 'n8n-workflow';

export interface HeldSubscription {
	id: string;
	/** Shown by the service only when the subscription is created; without it nothing can be verified. */
	secret: string;
	/** The n8n webhook URL the subscription delivers to. */
	url: string;
}

const KEYS = {
	id: 'subscriptionId',
	secret: 'subscriptionSecret',
	url: 'subscriptionUrl',
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
