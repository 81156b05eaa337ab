/** The trigger's parameters, checked as they are read before anything is sent to the service. */
import type {
	IHookFunctions,
	INodeProperties,
	INodePropertyOptions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { EVENT_TYPES, LIMITS, type EventType } from '../shared/client/contract';
import { SIMPLIFY_OPTION } from '../shared/parameters/descriptions';
import { savedListsToWatch, toEventTypes, toListIds } from '../shared/parameters/watched';

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['job_change'],
		description: 'The changes that start the workflow',
		options: [
			{
				name: 'Intent',
				value: 'intent',
				description:
					'A contact’s company shows buying intent for a topic, with a score from 0 to 100',
			},
			{
				name: 'Job Change',
				value: 'job_change',
				description: 'A contact moved to another company',
			},
			{
				name: 'Role Change',
				value: 'role_change',
				description: 'A contact’s title changed at the same company',
			},
		] satisfies Array<INodePropertyOptions & { value: EventType }>,
	},
	savedListsToWatch(
		'Only events for members of these saved lists start the workflow. Leave empty to watch every saved list of the account.',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Minimum Intent Score',
				name: 'minIntentScore',
				type: 'number',
				default: 0,
				typeOptions: { minValue: LIMITS.intentScoreMin, maxValue: LIMITS.intentScoreMax },
				displayOptions: { show: { '/events': ['intent'] } },
				description:
					'Intent events scoring below this (0–100) are acknowledged but do not start the workflow',
			},
			SIMPLIFY_OPTION,
		],
	},
];

/** What the subscription is for; compared with the service's subscriptions to adopt one. */
export interface SubscriptionSpec {
	/** In the contract's order, without repeats. */
	events: EventType[];
	/** Sorted, without repeats; `null` means every saved list. */
	listIds: string[] | null;
}

export function readSubscriptionSpec(this: IHookFunctions | IWebhookFunctions): SubscriptionSpec {
	const node = this.getNode();
	return {
		events: toEventTypes(node, this.getNodeParameter('events', []), EVENT_TYPES),
		listIds: toListIds(node, this.getNodeParameter('lists.list', [])),
	};
}

/** The "Options" collection, as the webhook call and the execution read it. */
export function toDeliveryOptions(value: unknown): { simplify: boolean; minIntentScore: number } {
	const { simplify, minIntentScore } = (value ?? {}) as Record<string, unknown>;
	const score = Number(minIntentScore ?? 0);
	return { simplify: simplify === true, minIntentScore: Number.isFinite(score) ? score : 0 };
}

/** Whether a subscription (as the service lists it) is for exactly this spec. */
export function matchesSpec(
	subscription: { events: readonly string[]; list_ids: readonly string[] | null },
	spec: SubscriptionSpec,
): boolean {
	// Compared as sets; no saved list and an empty list both mean every saved list.
	const key = (values: readonly string[] | null) =>
		values?.length ? JSON.stringify([...new Set(values)].sort()) : null;
	return (
		key(subscription.events) === key(spec.events) &&
		key(subscription.list_ids) === key(spec.listIds)
	);
}
