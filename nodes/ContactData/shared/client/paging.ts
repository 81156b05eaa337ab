/** Paging: a cursor given before, or a page that adds nothing new, would go on forever. */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { ApiContext } from './apiCredential';
import { LIMITS, PATHS, savedListsPageSchema, type SavedListsPage } from './contract';
import { ApiFailure } from './failures';
import { apiRequest } from './transport';

export interface Page<T> {
	results: T[];
	next_cursor: string | null;
}

/** Up to `limit` results from `cursor` on; `call` names what is paged (`POST /v1/search`). */
export async function readPages<T extends { id: string }>(
	context: IExecuteFunctions,
	call: string,
	itemIndex: number,
	{ limit, pageMax, cursor }: { limit: number; pageMax: number; cursor: string | null },
	readPage: (pageSize: number, cursor: string | null) => Promise<Page<T>>,
): Promise<Page<T>> {
	const results: T[] = [];
	const cursors = new Set<string>();
	const ids = new Set<string>();
	do {
		const page = await readPage(Math.min(pageMax, limit - results.length), cursor);
		results.push(...page.results.slice(0, limit - results.length));
		const idsBefore = ids.size;
		for (const { id } of page.results) ids.add(id);
		cursor = page.next_cursor;
		if (cursor === null) break;
		const loop = cursors.has(cursor)
			? 'gave the same cursor twice'
			: ids.size === idsBefore
				? 'answered a page that added nothing new'
				: undefined;
		if (loop) {
			throw new ApiFailure(context, 'unreadableAnswer', {
				code: 'cursor_loop',
				message: `Return All stopped: the Contact Data API ${loop}`,
				description: `Paging through ${call} would not have ended, so it stopped after ${cursors.size + 1} pages (${ids.size} distinct results). Try again later, or turn off Return All and set a Limit.`,
				itemIndex,
			});
		}
		cursors.add(cursor);
	} while (results.length < limit);
	return { results, next_cursor: cursor };
}

export async function savedListsPage(
	context: ApiContext,
	cursor: string | null | undefined,
	limit: number = LIMITS.listsLimitMax,
	itemIndex?: number,
): Promise<SavedListsPage> {
	const { body } = await (apiRequest<SavedListsPage>).call(context, {
		method: 'GET',
		path: PATHS.lists,
		qs: { limit, ...(cursor ? { cursor } : {}) },
		itemIndex,
		schema: savedListsPageSchema,
	});
	return body;
}
