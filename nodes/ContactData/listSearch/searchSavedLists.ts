import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import {
	LIMITS,
	PATHS,
	savedListsPageSchema,
	type SavedListsPage,
} from '../shared/client/contract';
import { apiRequest } from '../shared/client/transport';

/** Saved lists for the list picker, a page at a time, filtered by name. */
export async function searchSavedLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { body: page } = await (apiRequest<SavedListsPage>).call(this, {
		method: 'GET',
		path: PATHS.lists,
		qs: { limit: LIMITS.listsLimitMax, ...(paginationToken ? { cursor: paginationToken } : {}) },
		schema: savedListsPageSchema,
	});
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: page.lists
			.filter(
				(list) => needle === '' || list.name.toLowerCase().includes(needle) || list.id === filter,
			)
			.map((list) => ({
				name: `${list.name} (${list.contact_count.toLocaleString('en-US')} contacts)`,
				value: list.id,
			})),
		paginationToken: page.next_cursor ?? undefined,
	};
}
