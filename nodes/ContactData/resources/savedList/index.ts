import type { INodeProperties } from 'n8n-workflow';

import { panelsOf, type Operations } from '../../node.type';
import * as addContacts from './addContacts';
import * as create from './create';
import * as deleteList from './delete';
import * as exportList from './export';
import * as get from './get';
import * as getMany from './getMany';
import * as removeContacts from './removeContacts';

export const savedListOperations: Operations<'savedList'> = {
	getMany,
	get,
	create,
	addContacts,
	removeContacts,
	delete: deleteList,
	export: exportList,
};

export const savedListPanels: INodeProperties[][] = panelsOf(
	'savedList',
	savedListOperations,
	[
		{
			name: 'Add Contacts',
			value: 'addContacts',
			action: 'Add contacts to saved list',
			description: 'Add the contacts of all input items to a saved list',
		},
		{
			name: 'Create',
			value: 'create',
			action: 'Create saved list',
			description: 'Create a saved list from search filters or contact IDs',
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete saved list',
			description: 'Delete a saved list permanently; its contacts stay unlocked',
		},
		{
			name: 'Export',
			value: 'export',
			action: 'Export saved list',
			description: 'Download a saved list as CSV or JSON, any size',
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get saved list',
			description: 'Retrieve a saved list with its filters and contact count',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many saved lists',
			description: 'Retrieve the saved lists of the account with their contact counts',
		},
		{
			name: 'Remove Contacts',
			value: 'removeContacts',
			action: 'Remove contacts from saved list',
			description: 'Remove the contacts of all input items from a saved list',
		},
	],
	'getMany',
);
