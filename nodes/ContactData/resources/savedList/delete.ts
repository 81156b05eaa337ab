import type { INodeProperties } from 'n8n-workflow';

import { PATHS } from '../../shared/client/contract';
import { SAVED_LIST_PARAMETER, savedListIdOf } from '../../shared/parameters/descriptions';
import { forEachItem, type OperationExecute } from '../../shared/items/items';
import { apiRequest } from '../../shared/client/transport';

export const description: INodeProperties[] = [SAVED_LIST_PARAMETER];

export const execute: OperationExecute = async function (items) {
	return await forEachItem(this, items, async (itemIndex) => {
		const listId = savedListIdOf(this, itemIndex);
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
