import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { PATHS, savedListSchema } from '../../shared/client/contract';
import { SAVED_LIST_PARAMETER, savedListIdOf } from '../../shared/parameters/descriptions';
import { forEachItem, type OperationExecute } from '../../shared/items/items';
import { apiRequest } from '../../shared/client/transport';

export const description: INodeProperties[] = [SAVED_LIST_PARAMETER];

export const execute: OperationExecute = async function (items) {
	return await forEachItem(this, items, async (itemIndex) => {
		const listId = savedListIdOf(this, itemIndex);
		const { body } = await apiRequest.call(this, {
			method: 'GET',
			path: PATHS.list(listId),
			pathParameter: 'Saved List',
			itemIndex,
			schema: savedListSchema,
		});
		return body as IDataObject;
	});
};
