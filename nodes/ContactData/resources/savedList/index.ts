import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption, Operations } from '../../node.type';
import * as addContacts from './addContacts';
import * as create from './create';
import * as deleteList from './delete';
import * as exportList from './export';
import * as get from './get';
import * as getMany from './getMany';
import * as removeContacts from './removeContacts';

export const savedListOperations: Operations<'savedList'> = {
	getMany: getMany.execute,
	get: get.execute,
	create: create.execute,
	addContacts: addContacts.execute,
	removeContacts: removeContacts.execute,
	delete: deleteList.execute,
	export: exportList.execute,
};

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['savedList'] } },
	options: [
		{
			name: 'Add Contacts',
			value: 'addContacts',
			action: 'Add contacts to a saved list (free)',
			description: 'Add the contacts of all input items to a saved list',
		},
		{
			name: 'Create',
			value: 'create',
			action: 'Create a saved list (free)',
			description: 'Save search filters or contact IDs as a list',
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a saved list (free)',
		},
		{
			name: 'Export',
			value: 'export',
			action: 'Export a saved list (free)',
			description: 'Download a saved list as CSV or JSON, any size',
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a saved list (free)',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many saved lists (free)',
		},
		{
			name: 'Remove Contacts',
			value: 'removeContacts',
			action: 'Remove contacts from a saved list (free)',
			description: 'Remove the contacts of all input items from a saved list',
		},
	] satisfies Array<OperationOption<'savedList'>>,
	default: 'getMany',
};

/** Each operation's parameters in the order of its panel, after the Operation parameter. */
export const savedListPanels: INodeProperties[][] = [
	getMany,
	get,
	create,
	addContacts,
	removeContacts,
	deleteList,
	exportList,
].map(({ description }) => [operation, ...description]);
