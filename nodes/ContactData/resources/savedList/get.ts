import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { PATHS, savedListSchema } from '../../shared/client/contract';
import { SAVED_LIST_PARAMETER, savedListIdOf } from '../../shared/parameters/descriptions';
import type { OperationExecute } from '../../shared/items/items';
import { readEveryItemFirst } from '../../shared/items/perItemReaders';
import { apiRequest } from '../../shared/client/transport';

export const description: INodeProperties[] = [SAVED_LIST_PARAMETER];

export const execute: OperationExecute = async function (items) {
	const read = (itemIndex: number) => savedListIdOf(this, itemIndex);
	return await readEveryItemFirst(this, items, read, async (listId, itemIndex) => {
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
