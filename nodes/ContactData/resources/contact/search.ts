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
import { filterProperties, noMatchNotice, readFilters, textFilterAdvice } from '../../shared/parameters/filters';
import { forEachItem } from '../../shared/items/items';
import { CursorTrail } from '../../shared/client/paging';
import { simplifyOutput, simplifyParameters } from '../../shared/items/simplify';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { apiRequest } from '../../shared/client/transport';
import { checkBody, textOf, wholeNumber } from '../../shared/parameters/values';
import { FROM_VERSION_2, VERSION_1 } from '../../shared/parameters/inputFields';
import { AGENT_PAGE_SIZE, answersForAgent } from '../../shared/agent/toolAnswer';

const showFor = { show: { resource: ['contact'], operation: ['search'] } };
const onCanvas = { show: { ...showFor.show, '@tool': [false] } };
const asToolV1 = { show: { ...showFor.show, '@tool': [true], ...VERSION_1 } };
const asToolV2 = { show: { ...showFor.show, '@tool': [true], ...FROM_VERSION_2 } };

/** As an AI agent's tool (version 2): a page of 10 by default, and the cursor the agent gives for the next one. */
const agentPageParameters: INodeProperties[] = [
	{
		displayName: 'Page Size',
		name: 'pageSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: LIMITS.searchLimitMax },
		default: AGENT_PAGE_SIZE,
		displayOptions: asToolV2,
		description: `How many contacts one answer gives: ${AGENT_PAGE_SIZE} by default, small enough for a model's context; the answer's next_cursor asks for the next page`,
	},
	{
		displayName: 'Cursor',
		name: 'cursor',
		type: 'string',
		default: "={{ $fromAI('cursor', 'To get the next page of a search: the next_cursor of its previous answer, with the same filters. Empty for the first page.', 'string', '') }}",
		displayOptions: asToolV2,
		description: 'Where the page starts: the next_cursor of the previous answer, filled in by the agent; empty for the first page',
	},
];

export const description: INodeProperties[] = [
	...filterProperties(showFor),
	...returnAllAndLimit(onCanvas),
	...returnAllAndLimit(asToolV1),
	...agentPageParameters,
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
	const pages = answersForAgent(this);
	const output = await forEachItem(this, items, async (itemIndex) => {
		const filters = readFilters(this, itemIndex);
		const limit = pages ? pageSizeOf(this, itemIndex) : resultLimitOf(this, itemIndex);

		const contacts: IDataObject[] = [];
		let cursor: string | null = pages ? textOf({ node: this.getNode(), itemIndex }, 'Cursor', this.getNodeParameter('cursor', itemIndex, '')) || null : null;
		let total: number | undefined;
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
			total = page.total;
			if (page.truncated && cursor === null) capped = { total: page.total };
		} while (cursor !== null && contacts.length < limit);
		const advice = contacts.length === 0 ? textFilterAdvice(filters) : undefined;
		if (advice) noMatch.push(items.length > 1 ? `item ${itemIndex}: ${advice}` : advice);
		// An agent gets its page as one answer, with where the next page starts.
		return pages ? { contacts, next_cursor: cursor, total } : contacts;
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

/** Page Size, checked: an expression may give anything. */
function pageSizeOf(context: IExecuteFunctions, itemIndex: number): number {
	const value = context.getNodeParameter('pageSize', itemIndex, AGENT_PAGE_SIZE);
	return wholeNumber({ node: context.getNode(), itemIndex }, 'Page Size', value, { min: 1, max: LIMITS.searchLimitMax });
}
