/** Add and Remove Contacts: the ids of ALL input items, by list, deduplicated, 1,000 per call. */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	LIMITS,
	PATHS,
	listContactsAddedSchema,
	listContactsRemovedSchema,
} from '../../shared/client/contract';
import { SAVED_LIST_PARAMETER, savedListIdOf } from '../../shared/parameters/descriptions';
import { CONTACT_IDS_PARAMETERS } from '../../shared/parameters/perItemParameters';
import { contactIdsReader } from '../../shared/items/perItemReaders';
import { asNodeError, checkEveryItem, errorItem, pairedWith } from '../../shared/items/items';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { apiRequest } from '../../shared/client/transport';
import { chunk, unique } from '../../shared/parameters/utilities';
import type { Operation } from '../../node.type';

/**
 * Reads a key (`keyField` of the output) and contact ids from every item before anything is sent,
 * then runs `perGroup` once a key with the ids of its items, deduplicated: its answer is one item
 * paired with those items. Under continueOnFail an item or group that fails is an error item.
 */
export async function forEachGroup(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	keyField: string,
	keyOf: (itemIndex: number) => string,
	perGroup: (key: string, ids: string[], firstItem: number) => Promise<IDataObject>,
): Promise<INodeExecutionData[]> {
	const contactIdsOf = contactIdsReader(context, items);
	const { checked, refused } = await checkEveryItem(context, items, (itemIndex) => ({
		itemIndex,
		key: keyOf(itemIndex),
		ids: contactIdsOf(itemIndex),
	}));
	const output = [...refused].map(([item, failure]) => errorItem(failure, { item }));
	const groups = new Map<string, { itemIndexes: number[]; ids: string[] }>();
	for (const { itemIndex, key, ids } of checked) {
		const group = groups.get(key) ?? { itemIndexes: [], ids: [] };
		group.itemIndexes.push(itemIndex);
		group.ids.push(...ids);
		groups.set(key, group);
	}
	for (const [key, { itemIndexes, ids }] of groups) {
		const pairedItem = pairedWith(itemIndexes);
		try {
			output.push({ json: await perGroup(key, unique(ids), itemIndexes[0]), pairedItem });
		} catch (error) {
			const failure = asNodeError(context, error, itemIndexes[0]);
			if (!context.continueOnFail()) throw failure;
			output.push(errorItem(failure, pairedItem, { [keyField]: key }));
		}
	}
	return output;
}

const CHANGES = {
	add: { method: 'POST', schema: listContactsAddedSchema, counted: 'added' },
	remove: { method: 'DELETE', schema: listContactsRemovedSchema, counted: 'removed' },
} as const;

/** Sends `ids` (deduplicated) to a list in calls of up to 1,000; returns what the API counted. */
export async function sendMembers(
	context: IExecuteFunctions,
	listId: string,
	ids: string[],
	change: 'add' | 'remove',
	itemIndex: number,
): Promise<{ changed: number; contact_count: number; calls: number }> {
	const { method, schema, counted } = CHANGES[change];
	const batches = chunk(ids, LIMITS.listIdsMax);
	let changed = 0;
	let contactCount = 0;
	for (const batch of batches) {
		const { body: answer } = await (apiRequest<Record<string, unknown>>).call(context, {
			method,
			path: PATHS.listContacts(listId),
			fieldNames: editorFieldNames,
			pathParameter: 'Saved List',
			// Every id passed the contract's rule when its item was read.
			body: { ids: batch },
			// Adding or removing a member twice changes nothing: safe to send again.
			safeToRetry: true,
			itemIndex,
			schema,
		});
		const counts = answer as Record<typeof counted | 'contact_count', number>;
		changed += counts[counted];
		contactCount = counts.contact_count;
	}
	return { changed, contact_count: contactCount, calls: batches.length };
}

/** Add Contacts or Remove Contacts; the notice says what the operation does with the items. */
export function memberOperation(
	operation: 'addContacts' | 'removeContacts',
	notice: string,
): Operation {
	const change = operation === 'addContacts' ? 'add' : 'remove';
	const description: INodeProperties[] = [
		SAVED_LIST_PARAMETER,
		...CONTACT_IDS_PARAMETERS,
		{
			displayName: `${notice} The output is one item per list.`,
			name: `${operation}Notice`,
			type: 'notice',
			default: '',
			displayOptions: { show: { resource: ['savedList'], operation: [operation] } },
		},
	];
	async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const listIdOf = (itemIndex: number) => savedListIdOf(this, itemIndex);
		return await forEachGroup(this, items, 'list_id', listIdOf, async (listId, ids, firstItem) => {
			const sent = await sendMembers(this, listId, ids, change, firstItem);
			return {
				list_id: listId,
				[CHANGES[change].counted]: sent.changed,
				contact_count: sent.contact_count,
				contacts_sent: ids.length,
				calls: sent.calls,
			};
		});
	}
	return { description, execute };
}
