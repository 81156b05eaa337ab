import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	LIMITS,
	PATHS,
	searchPageSchema,
	searchRequestSchema,
	type SearchPage,
} from '../../shared/contract';
import { returnAllAndLimit } from '../../shared/descriptions';
import { filterProperties, readFilters } from '../../shared/filters';
import { forEachItem } from '../../shared/items';
import { simplifyOutput, simplifyParameters } from '../../shared/simplify';
import { apiRequest } from '../../shared/transport';

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
	const output = await forEachItem(this, items, async (itemIndex) => {
		const filters = readFilters(this, itemIndex);
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);

		const contacts: IDataObject[] = [];
		let cursor: string | null = null;
		do {
			const pageSize = Math.min(LIMITS.searchLimitMax, limit - contacts.length);
			const body = searchRequestSchema.parse({ filters, limit: pageSize, cursor });
			const { body: page } = await (apiRequest<SearchPage>).call(this, {
				method: 'POST',
				path: PATHS.search,
				body: body as IDataObject,
				safeToRetry: true,
				itemIndex,
				schema: searchPageSchema,
			});
			contacts.push(...(page.results.slice(0, limit - contacts.length) as IDataObject[]));
			cursor = page.next_cursor;
			if (page.truncated && cursor === null) capped = { total: page.total };
		} while (cursor !== null && contacts.length < limit);
		return contacts;
	});
	if (capped) {
		this.addExecutionHints({
			message: `The search matched about ${capped.total.toLocaleString('en-US')} contacts, but the API pages through only the first ${LIMITS.searchPagingCap.toLocaleString('en-US')}. To get every match, save these filters as a list (Saved List → Create, from search filters) and export it (Saved List → Export).`,
			location: 'outputPane',
		});
	}
	return simplifyOutput(this, output);
}
