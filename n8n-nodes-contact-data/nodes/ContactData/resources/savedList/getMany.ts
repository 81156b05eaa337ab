import type { z } from 'zod';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { LIMITS, PATHS, savedListsPageSchema } from '../../shared/contract';
import { resultLimitOf, returnAllAndLimit } from '../../shared/descriptions';
import { forEachItem } from '../../shared/items';
import { CursorTrail } from '../../shared/paging';
import { apiRequest } from '../../shared/transport';

type SavedListsPage = z.infer<typeof savedListsPageSchema>;

const showFor = { show: { resource: ['savedList'], operation: ['getMany'] } };

export const description: INodeProperties[] = [...returnAllAndLimit(showFor)];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (itemIndex) => {
		const limit = resultLimitOf(this, itemIndex);
		const lists: IDataObject[] = [];
		let cursor: string | null = null;
		const trail = new CursorTrail(this, `GET ${PATHS.lists}`, itemIndex);
		do {
			const { body: page }: { body: SavedListsPage } = await (apiRequest<SavedListsPage>).call(this, {
				method: 'GET',
				path: PATHS.lists,
				qs: {
					limit: Math.min(LIMITS.listsLimitMax, limit - lists.length),
					...(cursor ? { cursor } : {}),
				},
				itemIndex,
				schema: savedListsPageSchema,
			});
			lists.push(...(page.lists.slice(0, limit - lists.length) as IDataObject[]));
			trail.follow(page.lists.map((list) => list.id), page.next_cursor);
			cursor = page.next_cursor;
		} while (cursor !== null && lists.length < limit);
		return lists;
	});
}
