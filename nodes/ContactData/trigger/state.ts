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
}

/** The id of the subscription this node last held, even when its secret is missing. */
export function readHeldSubscriptionId(staticData: IDataObject): string | undefined {
	const id = staticData.subscriptionId;
	return typeof id === 'string' && id ? id : undefined;
}

export function readHeldSubscription(staticData: IDataObject): HeldSubscription | undefined {
	const id = readHeldSubscriptionId(staticData);
	const secret = staticData.subscriptionSecret;
	return id && typeof secret === 'string' && secret ? { id, secret } : undefined;
}

/** Holds a subscription, with the n8n webhook URL it delivers to. */
export function holdSubscription(
	staticData: IDataObject,
	{ id, secret }: HeldSubscription,
	url: string,
): void {
	Object.assign(staticData, {
		subscriptionId: id,
		subscriptionSecret: secret,
		subscriptionUrl: url,
	});
}

export function forgetSubscription(staticData: IDataObject): void {
	delete staticData.subscriptionId;
	delete staticData.subscriptionSecret;
	delete staticData.subscriptionUrl;
}
