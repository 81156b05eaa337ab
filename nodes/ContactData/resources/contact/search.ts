import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

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
import { FILTER_PROPERTIES } from '../../shared/parameters/filterParameters';
import { readFilters } from '../../shared/parameters/readFilters';
import { forEachItem, type OperationExecute } from '../../shared/items/items';
import { readPages } from '../../shared/client/paging';
import { SIMPLIFY_PARAMETERS, simplifyOutput } from '../../shared/items/simplify';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { apiRequest } from '../../shared/client/transport';
import { checkBody, textOf, wholeNumber } from '../../shared/parameters/values';
import {
	AS_TOOL,
	FROM_VERSION_2,
	ON_CANVAS,
	VERSION_1,
	shownWhen,
} from '../../shared/parameters/versions';
import { answersForAgent } from '../../shared/agent/toolAnswer';

const showFor = { show: { resource: ['contact'], operation: ['search'] } };
const onCanvas = shownWhen(showFor, ON_CANVAS);
const asToolV1 = shownWhen(showFor, AS_TOOL, VERSION_1);
const asToolV2 = shownWhen(showFor, AS_TOOL, FROM_VERSION_2);

/** How many contacts a search gives an agent by default: a page, with the cursor of the next one. */
const AGENT_PAGE_SIZE = 10;

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
		default:
			"={{ $fromAI('cursor', 'To get the next page of a search: the next_cursor of its previous answer, with the same filters. Empty for the first page.', 'string', '') }}",
		displayOptions: asToolV2,
		description:
			'Where the page starts: the next_cursor of the previous answer, filled in by the agent; empty for the first page',
	},
];

export const description: INodeProperties[] = [
	...FILTER_PROPERTIES,
	...returnAllAndLimit(onCanvas),
	...returnAllAndLimit(asToolV1),
	...agentPageParameters,
	...SIMPLIFY_PARAMETERS,
	{
		displayName:
			'Search is free and reaches the first 10,000 matches. For all of them, save the filters as a list (Saved List → Create) and export it.',
		name: 'searchNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor,
	},
];

export const execute: OperationExecute = async function (items) {
	// What paging met over the run: a search the API pages through only so far.
	const paging: { cappedTotal?: number } = {};
	const noMatch = new NoMatchAdvice(items.length);
	const pages = answersForAgent(this);
	const output = await forEachItem(this, items, async (itemIndex) => {
		const filters = readFilters(this, itemIndex);
		const limit = pages ? pageSizeOf(this, itemIndex) : resultLimitOf(this, itemIndex);
		const cursor = pages ? cursorOf(this, itemIndex) : null;
		const found = await searchContacts(this, { filters, limit, cursor }, itemIndex, paging);
		noMatch.note(itemIndex, filters, found.contacts.length);
		// An agent gets its page as one answer, with where the next page starts.
		return pages ? { ...found } : found.contacts;
	});
	noMatch.hint(this, 'No contacts matched.');
	if (paging.cappedTotal !== undefined) {
		this.addExecutionHints({
			message: `The search matched about ${paging.cappedTotal.toLocaleString('en-US')} contacts, but the API pages through only the first ${LIMITS.searchPagingCap.toLocaleString('en-US')}. To get every match, save these filters as a list (Saved List → Create, from search filters) and export it (Saved List → Export).`,
			location: 'outputPane',
		});
	}
	return simplifyOutput(this, output);
};

/** Page Size, checked: an expression may give anything. */
function pageSizeOf(context: IExecuteFunctions, itemIndex: number): number {
	const value = context.getNodeParameter('pageSize', itemIndex, AGENT_PAGE_SIZE);
	const range = { min: 1, max: LIMITS.searchLimitMax };
	return wholeNumber({ context, itemIndex }, 'Page Size', value, range);
}

/** Where an agent's page starts: the Cursor it was given, or the first page. */
function cursorOf(context: IExecuteFunctions, itemIndex: number): string | null {
	const cursor = context.getNodeParameter('cursor', itemIndex, '');
	return textOf({ context, itemIndex }, 'Cursor', cursor) || null;
}

/** Up to `limit` contacts matching `filters` from `cursor` on (null: the first page). */
async function searchContacts(
	context: IExecuteFunctions,
	{ filters, limit, cursor }: { filters: SearchFilters; limit: number; cursor: string | null },
	itemIndex: number,
	paging: { cappedTotal?: number },
): Promise<{ contacts: IDataObject[]; next_cursor: string | null; total?: number }> {
	let total: number | undefined;
	const found = await readPages(
		context,
		`POST ${PATHS.search}`,
		itemIndex,
		{ limit, pageMax: LIMITS.searchLimitMax, cursor },
		async (pageSize, from) => {
			const request: SearchRequest = { filters, limit: pageSize, cursor: from };
			const { body: page } = await (apiRequest<SearchPage>).call(context, {
				method: 'POST',
				path: PATHS.search,
				fieldNames: editorFieldNames,
				body: checkBody(context, searchRequestSchema, request, itemIndex, { limit: 'Limit' }),
				safeToRetry: true,
				itemIndex,
				schema: searchPageSchema,
			});
			total = page.total;
			if (page.truncated && page.next_cursor === null) paging.cappedTotal = page.total;
			return page;
		},
	);
	return { contacts: found.results as IDataObject[], next_cursor: found.next_cursor, total };
}
