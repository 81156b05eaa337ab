import type { INodeProperties } from 'n8n-workflow';

import { panelsOf, type Operations } from '../../node.type';
import * as enrich from './enrich';
import * as search from './search';
import * as unlock from './unlock';

export const contactOperations: Operations<'contact'> = { search, unlock, enrich };

export const contactPanels: INodeProperties[][] = panelsOf(
	'contact',
	contactOperations,
	[
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
	],
	'search',
);
