import type { INodeProperties } from 'n8n-workflow';

import { PATHS } from '../../shared/client/contract';
import { SAVED_LIST_PARAMETER, savedListIdOf } from '../../shared/parameters/descriptions';
import type { OperationExecute } from '../../shared/items/items';
import { readEveryItemFirst } from '../../shared/items/perItemReaders';
import { apiRequest } from '../../shared/client/transport';

export const description: INodeProperties[] = [SAVED_LIST_PARAMETER];

export const execute: OperationExecute = async function (items) {
	const read = (itemIndex: number) => savedListIdOf(this, itemIndex);
	return await readEveryItemFirst(this, items, read, async (listId, itemIndex) => {
		await apiRequest.call(this, {
			method: 'DELETE',
			path: PATHS.list(listId),
			pathParameter: 'Saved List',
			// Not sent again: after a lost answer a second DELETE would report the list as unknown.
			safeToRetry: false,
			itemIndex,
		});
		return { id: listId, deleted: true };
	});
};
