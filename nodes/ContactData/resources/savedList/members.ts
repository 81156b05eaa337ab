/**
 * Adding contacts to and removing them from saved lists: ids from ALL input items, grouped by list,
 * deduplicated and sent 1,000 per call instead of one call per item.
 */
import type { z } from 'zod';
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
	listContactsRequestSchema,
} from '../../shared/client/contract';
import { SAVED_LIST_PARAMETER, savedListIdOf } from '../../shared/parameters/descriptions';
import { CONTACT_IDS_PARAMETERS } from '../../shared/parameters/perItemParameters';
import { contactIdsReader } from '../../shared/items/perItemReaders';
import { asNodeError, errorItem, pairedWith } from '../../shared/items/items';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { apiRequest } from '../../shared/client/transport';
import { chunk, unique } from '../../shared/parameters/utilities';
import { checkBody } from '../../shared/parameters/values';

/** The parameters of Add Contacts and Remove Contacts; the notice says what the operation does with the items. */
export function memberParameters(
	operation: 'addContacts' | 'removeContacts',
	notice: string,
): INodeProperties[] {
	const showFor = { show: { resource: ['savedList'], operation: [operation] } };
	return [
		SAVED_LIST_PARAMETER,
		...CONTACT_IDS_PARAMETERS,
		{
			displayName: `${notice} The output is one item per list.`,
			name: `${operation}Notice`,
			type: 'notice',
			default: '',
			displayOptions: showFor,
		},
	];
}

interface Group {
	itemIndexes: number[];
	ids: string[];
}

/**
 * Reads a group key and contact ids from every item, before anything is sent. Items that fail go to
 * `failed` under continueOnFail; otherwise the error stops the node.
 */
export function groupIdsByKey(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	keyOf: (itemIndex: number) => string,
	failed: INodeExecutionData[],
): Map<string, Group> {
	const groups = new Map<string, Group>();
	const contactIdsOf = contactIdsReader(context, items);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const key = keyOf(itemIndex);
			const ids = contactIdsOf(itemIndex);
			const group = groups.get(key) ?? { itemIndexes: [], ids: [] };
			group.itemIndexes.push(itemIndex);
			group.ids.push(...ids);
			groups.set(key, group);
		} catch (error) {
			const failure = asNodeError(context, error, itemIndex);
			if (!context.continueOnFail()) throw failure;
			failed.push(errorItem(failure, { item: itemIndex }));
		}
	}
	return groups;
}

/**
 * Runs `perGroup` for each group: its answer as one item paired with all the group's items, or
 * (under continueOnFail) an error item with `errorJson` of its key.
 */
export async function forEachGroup(
	context: IExecuteFunctions,
	groups: Map<string, Group>,
	output: INodeExecutionData[],
	perGroup: (key: string, group: Group) => Promise<IDataObject>,
	errorJson: (key: string) => IDataObject,
): Promise<INodeExecutionData[]> {
	for (const [key, group] of groups) {
		try {
			output.push({ json: await perGroup(key, group), pairedItem: pairedWith(group.itemIndexes) });
		} catch (error) {
			const failure = asNodeError(context, error, group.itemIndexes[0]);
			if (!context.continueOnFail()) throw failure;
			output.push(errorItem(failure, pairedWith(group.itemIndexes), errorJson(key)));
		}
	}
	return output;
}

/** Sends `ids` to a list in calls of up to 1,000; returns what the API counted. */
export async function sendMembers(
	context: IExecuteFunctions,
	listId: string,
	ids: string[],
	change: 'add' | 'remove',
	itemIndex: number,
): Promise<{ changed: number; contact_count: number; calls: number }> {
	let changed = 0;
	let contactCount = 0;
	let calls = 0;
	for (const batch of chunk(unique(ids), LIMITS.listIdsMax)) {
		const body = checkBody(context, listContactsRequestSchema, { ids: batch }, itemIndex, {
			ids: 'Contact IDs',
		});
		calls++;
		const answer = await sendBatch(context, listId, body, change, itemIndex);
		changed += answer.changed;
		contactCount = answer.contactCount;
	}
	return { changed, contact_count: contactCount, calls };
}

/** One call adding or removing a batch of members: how many changed, and the list's size after. */
async function sendBatch(
	context: IExecuteFunctions,
	listId: string,
	body: IDataObject,
	change: 'add' | 'remove',
	itemIndex: number,
): Promise<{ changed: number; contactCount: number }> {
	const call = {
		path: PATHS.listContacts(listId),
		fieldNames: editorFieldNames,
		pathParameter: 'Saved List',
		body,
		itemIndex,
	};
	if (change === 'add') {
		const { body: answer } = await (apiRequest<z.infer<typeof listContactsAddedSchema>>).call(
			context,
			{
				...call,
				method: 'POST',
				// Adding a member twice changes nothing: safe to send again.
				safeToRetry: true,
				schema: listContactsAddedSchema,
			},
		);
		return { changed: answer.added, contactCount: answer.contact_count };
	}
	const { body: answer } = await (apiRequest<z.infer<typeof listContactsRemovedSchema>>).call(
		context,
		{
			...call,
			method: 'DELETE',
			schema: listContactsRemovedSchema,
		},
	);
	return { changed: answer.removed, contactCount: answer.contact_count };
}

export async function changeMembers(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	change: 'add' | 'remove',
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	const groups = groupIdsByKey(this, items, (itemIndex) => savedListIdOf(this, itemIndex), output);
	return await forEachGroup(
		this,
		groups,
		output,
		async (listId, group) => {
			const uniqueIds = unique(group.ids);
			const result = await sendMembers(this, listId, uniqueIds, change, group.itemIndexes[0]);
			return {
				list_id: listId,
				[change === 'add' ? 'added' : 'removed']: result.changed,
				contact_count: result.contact_count,
				contacts_sent: uniqueIds.length,
				calls: result.calls,
			};
		},
		(listId) => ({ list_id: listId }),
	);
}
