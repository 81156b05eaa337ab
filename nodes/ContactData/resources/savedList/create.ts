import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { LIMITS, PATHS, savedListSchema } from '../../shared/client/contract';
import { optionParameter } from '../../shared/parameters/descriptions';
import { contactIdsParameters } from '../../shared/parameters/perItemParameters';
import { NoMatchAdvice } from '../../shared/parameters/filterAdvice';
import { FILTER_PROPERTIES } from '../../shared/parameters/filterParameters';
import { readFilters } from '../../shared/parameters/readFilters';
import type { OperationExecute } from '../../shared/items/items';
import { readEveryItemFirst } from '../../shared/items/perItemReaders';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { apiRequest } from '../../shared/client/transport';
import { refused, textOf } from '../../shared/parameters/values';
import { forEachGroup, sendMembers } from './members';

const showFor = { show: { resource: ['savedList'], operation: ['create'] } };
const showForIds = { show: { ...showFor.show, createFrom: ['contactIds'] } };

const CREATE_FROM_CHOICES = [
	{
		name: 'Contact IDs',
		value: 'contactIds',
		description: 'The contacts of all input items, each once, in one list per name',
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
	...FILTER_PROPERTIES,
	...contactIdsParameters(showForIds, 'The contacts to put in the list'),
];

function nameOf(context: IExecuteFunctions, itemIndex: number): string {
	const where = { context, itemIndex };
	const value: unknown = context.getNodeParameter('name', itemIndex, '');
	const name = textOf(where, 'Name', value);
	if (name !== '' && name.length <= LIMITS.listNameMaxLength) return name;
	const problem = `is not a list name of 1 to ${LIMITS.listNameMaxLength} characters`;
	throw refused(where, 'Name', value, problem, 'type a name for the list, e.g. Series A CTOs');
}

async function createList(
	context: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const { body: list } = await apiRequest.call(context, {
		method: 'POST',
		path: PATHS.lists,
		fieldNames: editorFieldNames,
		// Checked as it was read: the name here, the filters and ids by their readers.
		body,
		// Not sent again after a lost answer: it could create the list twice.
		safeToRetry: false,
		itemIndex,
		schema: savedListSchema,
	});
	return list as IDataObject;
}

export const execute: OperationExecute = async function (items) {
	const createFrom = optionParameter<'filters' | 'contactIds'>(
		this,
		'createFrom',
		'Create From',
		0,
		CREATE_FROM_CHOICES,
		'filters',
	);
	const listNameOf = (itemIndex: number) => nameOf(this, itemIndex);
	if (createFrom === 'contactIds') {
		// One list a name, of the contacts of every item naming it (ids past the first call's cap added after).
		return await forEachGroup(this, items, 'name', listNameOf, async (name, ids, firstItem) => {
			const first = ids.slice(0, LIMITS.listCreateIdsMax);
			const list = await createList(this, { name, filters: null, contact_ids: first }, firstItem);
			if (ids.length === first.length) return list;
			const rest = ids.slice(first.length);
			const added = await sendMembers(this, String(list.id), rest, 'add', firstItem);
			return { ...list, contact_count: added.contact_count };
		});
	}
	// One list an item, of the contacts its filters match.
	const noMatch = new NoMatchAdvice(items.length);
	const read = (itemIndex: number) => ({
		name: listNameOf(itemIndex),
		filters: readFilters(this, itemIndex),
	});
	const output = await readEveryItemFirst(this, items, read, async (body, itemIndex) => {
		const list = await createList(this, body, itemIndex);
		noMatch.note(itemIndex, body.filters, Number(list.contact_count));
		return list;
	});
	noMatch.hint(this, 'The new list has no contacts.');
	return output;
};
