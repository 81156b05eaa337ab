import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	LIMITS,
	PATHS,
	searchPageSchema,
	searchRequestSchema,
	type SearchFilters,
	type SearchPage,
	type SearchRequest,
} from '../../shared/client/contract';
import { resultLimitOf, returnAllAndLimit } from '../../shared/parameters/descriptions';
import { NoMatchAdvice } from '../../shared/parameters/filterAdvice';
import { filterProperties } from '../../shared/parameters/filterParameters';
import { readFilters } from '../../shared/parameters/readFilters';
import { forEachItem } from '../../shared/items/items';
import { CursorTrail } from '../../shared/client/paging';
import { simplifyOutput, simplifyParameters } from '../../shared/items/simplify';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { apiRequest } from '../../shared/client/transport';
import { checkBody } from '../../shared/parameters/values';

const showFor = { show: { resource: ['contact'], operation: ['search'] } };

export const description: INodeProperties[] = [
	...filterProperties(showFor),
	...returnAllAndLimit(showFor),
	...simplifyParameters(showFor),
	{
		displayName:
			'Search is free. It pages through the first 10,000 matches at most; to reach all of them, save the filters as a list (Saved List → Create) and export it.',
		name: 'searchNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor,
	},
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const paging: SearchPaging = {};
	const noMatch = new NoMatchAdvice(items.length);
	const output = await forEachItem(this, items, async (itemIndex) => {
		const filters = readFilters(this, itemIndex);
		const contacts = await searchContacts(this, filters, resultLimitOf(this, itemIndex), itemIndex, paging);
		noMatch.note(itemIndex, filters, contacts.length);
		return contacts;
	});
	noMatch.hint(this, 'No contacts matched.');
	if (paging.capped) {
		this.addExecutionHints({
			message: `The search matched about ${paging.capped.total.toLocaleString('en-US')} contacts, but the API pages through only the first ${LIMITS.searchPagingCap.toLocaleString('en-US')}. To get every match, save these filters as a list (Saved List → Create, from search filters) and export it (Saved List → Export).`,
			location: 'outputPane',
		});
	}
	return simplifyOutput(this, output);
}

/** What paging met over the run: a search the API pages through only so far. */
interface SearchPaging {
	capped?: { total: number };
}

/** Up to `limit` contacts matching `filters`, page by page. */
async function searchContacts(
	context: IExecuteFunctions,
	filters: SearchFilters,
	limit: number,
	itemIndex: number,
	paging: SearchPaging,
): Promise<IDataObject[]> {
	const contacts: IDataObject[] = [];
	let cursor: string | null = null;
	const trail = new CursorTrail(context, `POST ${PATHS.search}`, itemIndex);
	do {
		const pageSize = Math.min(LIMITS.searchLimitMax, limit - contacts.length);
		const body: SearchRequest = checkBody(context, searchRequestSchema, { filters, limit: pageSize, cursor }, itemIndex, {
			limit: 'Limit',
		});
		const { body: page } = await (apiRequest<SearchPage>).call(context, {
			method: 'POST',
			path: PATHS.search,
			fieldNames: editorFieldNames,
			body: body as IDataObject,
			safeToRetry: true,
			itemIndex,
			schema: searchPageSchema,
		});
		contacts.push(...(page.results.slice(0, limit - contacts.length) as IDataObject[]));
		trail.follow(page.results.map((contact) => contact.id), page.next_cursor);
		cursor = page.next_cursor;
		if (page.truncated && cursor === null) paging.capped = { total: page.total };
	} while (cursor !== null && contacts.length < limit);
	return contacts;
}
