import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { PATHS, balanceSchema } from '../../shared/contract';
import { forEachItem } from '../../shared/items';
import { apiRequest } from '../../shared/transport';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (itemIndex) => {
		const { body } = await apiRequest.call(this, {
			method: 'GET',
			path: PATHS.creditsBalance,
			itemIndex,
			schema: balanceSchema,
		});
		return body as IDataObject;
	});
}
