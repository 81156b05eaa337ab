/** Webhook subscriptions of one account: which events about which lists go to which URL. */
import { randomBytes } from 'node:crypto';
import { ID_PREFIXES, WEBHOOKS, type EventType } from '../nodes/ContactData/shared/client/contract';

export interface Subscription {
	id: string;
	url: string;
	events: EventType[];
	list_ids: string[] | null;
	secret: string;
	created_at: string;
}

export class WebhookStore {
	private readonly subscriptions = new Map<string, Subscription>();

	create(url: string, events: EventType[], listIds: string[] | null, at: string): Subscription {
		const subscription: Subscription = {
			id: ID_PREFIXES.webhook + randomBytes(8).toString('hex'),
			url,
			events,
			list_ids: listIds,
			secret: WEBHOOKS.secretPrefix + randomBytes(24).toString('base64'),
			created_at: at,
		};
		this.subscriptions.set(subscription.id, subscription);
		return subscription;
	}

	delete(id: string): boolean {
		return this.subscriptions.delete(id);
	}

	all(): Subscription[] {
		return [...this.subscriptions.values()];
	}

	/** Subscriptions that want an event of this type about this list. */
	matching(type: EventType, listId: string): Subscription[] {
		return this.all().filter(
			(subscription) =>
				subscription.events.includes(type) &&
				(subscription.list_ids === null || subscription.list_ids.includes(listId)),
		);
	}
}

/** The public form of a subscription: the secret is shown only when it is created. */
export function publicSubscription(
	subscription: Subscription,
	withSecret: boolean,
): Record<string, unknown> {
	const { secret, ...rest } = subscription;
	return withSecret ? { ...rest, secret } : rest;
}

/** Whether a webhook URL is acceptable: https anywhere, http only to a loopback address. */
export function isAcceptableWebhookUrl(url: string): boolean {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return false;
	}
	if (parsed.protocol === 'https:') return parsed.hostname.length > 0;
	if (parsed.protocol !== 'http:') return false;
	const host = parsed.hostname.replace(/^\[|\]$/g, '');
	return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
