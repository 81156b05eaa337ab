import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { LIMITS, PATHS, createListRequestSchema, savedListSchema } from '../../shared/client/contract';
import { contactIdsParameter, optionParameter } from '../../shared/parameters/descriptions';
import { noMatchNotice, textFilterAdvice } from '../../shared/parameters/filterAdvice';
import { filterProperties } from '../../shared/parameters/filterParameters';
import { FILTER_PARAMETER_NAMES } from '../../shared/parameters/filters';
import { readFilters } from '../../shared/parameters/readFilters';
import { asNodeError, errorItem, forEachItem, pairedWith } from '../../shared/items/items';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { apiRequest } from '../../shared/client/transport';
import { checkBody, refused, textOf, unique } from '../../shared/parameters/values';
import { groupIdsByKey, sendMembers } from './members';

const showFor = { show: { resource: ['savedList'], operation: ['create'] } };
const showForFilters = { show: { ...showFor.show, createFrom: ['filters'] } };
const showForIds = { show: { ...showFor.show, createFrom: ['contactIds'] } };

const CREATE_FROM_CHOICES = [
	{
		name: 'Contact IDs',
		value: 'contactIds',
		description: 'The contacts of all input items in one list per name (deduplicated, sent 1,000 per call)',
	},
	{
		name: 'Search Filters',
		value: 'filters',
		description:
			'A saved search: its members are every match, beyond the 10,000 a search can page through. One list per input item.',
	},
];

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showFor,
		description: 'The name of the new saved list (1–200 characters)',
	},
	{
		displayName: 'Create From',
		name: 'createFrom',
		type: 'options',
		required: true,
		default: 'filters',
		displayOptions: showFor,
		options: CREATE_FROM_CHOICES,
	},
	...filterProperties(showForFilters),
	contactIdsParameter(showForIds, 'The contacts to put in the list.'),
];

const BODY_PARAMETERS = {
	name: 'Name',
	contact_ids: 'Contact IDs',
	...FILTER_PARAMETER_NAMES,
};

/** The list name of an item: text of 1 to 200 characters. */
function nameOf(context: IExecuteFunctions, itemIndex: number): string {
	const where = { node: context.getNode(), itemIndex };
	const value: unknown = context.getNodeParameter('name', itemIndex, '');
	const name = textOf(where, 'Name', value);
	if (name === '' || name.length > LIMITS.listNameMaxLength) {
		throw refused(where, 'Name', value, `is not a list name of 1 to ${LIMITS.listNameMaxLength} characters`);
	}
	return name;
}

async function createList(
	context: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const checked = checkBody(context, createListRequestSchema, body, itemIndex, BODY_PARAMETERS);
	const { body: list } = await apiRequest.call(context, {
		method: 'POST',
		path: PATHS.lists,
		fieldNames: editorFieldNames,
		body: checked as IDataObject,
		// Not sent again after a lost answer: it could create the list twice.
		safeToRetry: false,
		itemIndex,
		schema: savedListSchema,
	});
	return list as IDataObject;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const createFrom = optionParameter(this, 'createFrom', 'Create From', 0, CREATE_FROM_CHOICES, 'filters');
	if (createFrom === 'filters') {
		const noMatch: string[] = [];
		const output = await forEachItem(this, items, async (itemIndex) => {
			const name = nameOf(this, itemIndex);
			const filters = readFilters(this, itemIndex);
			const list = await createList(this, { name, filters }, itemIndex);
			const advice = list.contact_count === 0 ? textFilterAdvice(filters) : undefined;
			if (advice) noMatch.push(items.length > 1 ? `item ${itemIndex}: ${advice}` : advice);
			return list;
		});
		if (noMatch.length) {
			this.addExecutionHints({ message: noMatchNotice('The new list has no contacts.', noMatch), location: 'outputPane' });
		}
		return output;
	}

	const output: INodeExecutionData[] = [];
	const groups = groupIdsByKey(
		this,
		items,
		(itemIndex) => nameOf(this, itemIndex),
		output,
	);
	for (const [name, group] of groups) {
		const firstItem = group.itemIndexes[0];
		const ids = unique(group.ids);
		try {
			const first = ids.slice(0, LIMITS.listCreateIdsMax);
			let list = await createList(this, { name, filters: null, contact_ids: first }, firstItem);
			if (ids.length > first.length) {
				const rest = await sendMembers(this, String(list.id), ids.slice(first.length), 'add', firstItem);
				list = { ...list, contact_count: rest.contact_count };
			}
			output.push({ json: list, pairedItem: pairedWith(group.itemIndexes) });
		} catch (error) {
			const failure = asNodeError(this, error, firstItem);
			if (!this.continueOnFail()) throw failure;
			output.push(errorItem(failure, pairedWith(group.itemIndexes), { name }));
		}
	}
	return output;
}
