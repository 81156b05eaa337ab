import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { savedListsPage } from '../shared/client/paging';

/** Saved lists for the list picker, a page at a time, filtered by name. */
export async function searchSavedLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = await savedListsPage(this, paginationToken);
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
