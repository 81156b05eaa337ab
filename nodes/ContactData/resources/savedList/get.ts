import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { PATHS, savedListSchema } from '../../shared/client/contract';
import { savedListIdOf, savedListLocator } from '../../shared/parameters/descriptions';
import { forEachItem } from '../../shared/items/items';
import { apiRequest } from '../../shared/client/transport';

const showFor = { show: { resource: ['savedList'], operation: ['get'] } };

export const description: INodeProperties[] = [savedListLocator(showFor)];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
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
}
