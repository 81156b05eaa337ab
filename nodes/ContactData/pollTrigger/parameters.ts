/** The poll trigger's parameters and how they are read, checked before anything is exported. */
import type { INodeProperties, IPollFunctions } from 'n8n-workflow';

import { OperationError } from '../shared/client/failures';
import { SIMPLIFY_OPTION } from '../shared/parameters/descriptions';
import { savedListsToWatch, toEventTypes, toListIds } from '../shared/parameters/watched';
import type { JobChangeType } from '../shared/items/changes';

const POLLED_EVENT_TYPES: JobChangeType[] = ['job_change', 'role_change'];

export const pollTriggerProperties: INodeProperties[] = [
	{
		// How changes are found, and what a list built from filters misses: docs/trigger.md.
		displayName:
			'At each Poll Time, starts the workflow once per job or role change on the watched saved lists. Intent signals come only to the Contact Data Trigger.',
		name: 'pollNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['job_change', 'role_change'],
		description: 'The changes that start the workflow',
		options: [
			{
				name: 'Job Change',
				value: 'job_change',
				description: 'A contact moved to another company (compared by domain, else by name)',
			},
			{
				name: 'Role Change',
				value: 'role_change',
				description:
					'A contact’s title changed at the same company (case, spaces and punctuation ignored)',
			},
		],
	},
	savedListsToWatch(
		'The saved lists whose members are checked at every poll. A contact added to or removed from a list is not a change; the first check of a list only records its members.',
		'For champions, watch a list of contacts added by ID: a list built from filters misses changes that move people out of it',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [SIMPLIFY_OPTION],
	},
];

export function readPollSettings(this: IPollFunctions) {
	const node = this.getNode();
	const listIds = toListIds(node, this.getNodeParameter('lists.list', []));
	if (listIds === null) {
		throw new OperationError(node, 'Add at least one saved list to "Saved Lists to Watch"', {
			description: 'A poll checks the members of the lists chosen there.',
		});
	}
	const options = this.getNodeParameter('options', {}) as { simplify?: unknown };
	const events = toEventTypes(
		node,
		this.getNodeParameter('events', []),
		POLLED_EVENT_TYPES,
		'intent signals come only through the Contact Data Trigger',
	);
	return { events, listIds, simplify: options.simplify === true };
}
