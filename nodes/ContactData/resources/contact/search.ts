import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	LIMITS,
	PATHS,
	searchPageSchema,
	searchRequestSchema,
	type SearchPage,
	type SearchRequest,
} from '../../shared/client/contract';
import { resultLimitOf, returnAllAndLimit } from '../../shared/parameters/descriptions';
import { noMatchNotice, textFilterAdvice } from '../../shared/parameters/filterAdvice';
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
	let capped: { total: number } | undefined;
	const noMatch: string[] = [];
	const output = await forEachItem(this, items, async (itemIndex) => {
		const filters = readFilters(this, itemIndex);
		const limit = resultLimitOf(this, itemIndex);

		const contacts: IDataObject[] = [];
		let cursor: string | null = null;
		const trail = new CursorTrail(this, `POST ${PATHS.search}`, itemIndex);
		do {
			const pageSize = Math.min(LIMITS.searchLimitMax, limit - contacts.length);
			const body: SearchRequest = checkBody(this, searchRequestSchema, { filters, limit: pageSize, cursor }, itemIndex, {
				limit: 'Limit',
			});
			const { body: page } = await (apiRequest<SearchPage>).call(this, {
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
			if (page.truncated && cursor === null) capped = { total: page.total };
		} while (cursor !== null && contacts.length < limit);
		const advice = contacts.length === 0 ? textFilterAdvice(filters) : undefined;
		if (advice) noMatch.push(items.length > 1 ? `item ${itemIndex}: ${advice}` : advice);
		return contacts;
	});
	if (noMatch.length) {
		this.addExecutionHints({
			message: noMatchNotice('No contacts matched.', noMatch),
			location: 'outputPane',
		});
	}
	if (capped) {
		this.addExecutionHints({
			message: `The search matched about ${capped.total.toLocaleString('en-US')} contacts, but the API pages through only the first ${LIMITS.searchPagingCap.toLocaleString('en-US')}. To get every match, save these filters as a list (Saved List → Create, from search filters) and export it (Saved List → Export).`,
			location: 'outputPane',
		});
	}
	return simplifyOutput(this, output);
}
