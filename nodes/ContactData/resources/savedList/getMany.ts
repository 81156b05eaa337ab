import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { LIMITS, PATHS } from '../../shared/client/contract';
import { resultLimitOf, returnAllAndLimit } from '../../shared/parameters/descriptions';
import { onceForAllItems, usesExpression, type OperationExecute } from '../../shared/items/items';
import { readEveryItemFirst } from '../../shared/items/perItemReaders';
import { readPages, savedListsPage } from '../../shared/client/paging';

const showFor = { show: { resource: ['savedList'], operation: ['getMany'] } };

export const description: INodeProperties[] = [...returnAllAndLimit(showFor)];

export const execute: OperationExecute = async function (items) {
	// The lists are the account's: read once for all items, unless Return All or Limit is an
	// expression, which may read the item.
	if (!usesExpression(this, ['returnAll', 'limit'])) {
		return await onceForAllItems(
			this,
			items,
			async () => await getLists(this, resultLimitOf(this, 0)),
		);
	}
	const read = (itemIndex: number) => resultLimitOf(this, itemIndex);
	return await readEveryItemFirst(
		this,
		items,
		read,
		async (limit, itemIndex) => await getLists(this, limit, itemIndex),
	);
};

async function getLists(
	context: IExecuteFunctions,
	limit: number,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const paging = { limit, pageMax: LIMITS.listsLimitMax, cursor: null };
	const { results } = await readPages(
		context,
		`GET ${PATHS.lists}`,
		itemIndex ?? 0,
		paging,
		async (pageSize, cursor) => {
			const page = await savedListsPage(context, cursor, pageSize, itemIndex);
			return { results: page.lists, next_cursor: page.next_cursor };
		},
	);
	return results as IDataObject[];
}
