import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption, Operations } from '../../node.type';
import * as enrich from './enrich';
import * as search from './search';
import * as unlock from './unlock';

export const contactOperations: Operations<'contact'> = {
	search: search.execute,
	unlock: unlock.execute,
	enrich: enrich.execute,
};

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['contact'] } },
	options: [
		{
			name: 'Enrich',
			value: 'enrich',
			action: 'Enrich contact',
			description:
				'Find and unlock the full record of a person by email or LinkedIn URL (charges credits)',
		},
		{
			name: 'Search',
			value: 'search',
			action: 'Search contacts',
			description: 'Find contacts by title, seniority, company and 270+ more filters (free)',
		},
		{
			name: 'Unlock',
			value: 'unlock',
			action: 'Unlock contacts',
			description: 'Get the email and more for contacts from a search (charges credits)',
		},
	] satisfies Array<OperationOption<'contact'>>,
	default: 'search',
};

/** Each operation's parameters in the order of its panel, after the Operation parameter. */
export const contactPanels: INodeProperties[][] = [search, unlock, enrich].map(
	({ description }) => [operation, ...description],
);
