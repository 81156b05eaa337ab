import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { PATHS, balanceSchema } from '../../shared/client/contract';
import { onceForAllItems, type OperationExecute } from '../../shared/items/items';
import { apiRequest } from '../../shared/client/transport';

export const description: INodeProperties[] = [];

/** The balance is the account's, not the item's: one call and one item however many items come in. */
export const execute: OperationExecute = async function (items) {
	return await onceForAllItems(this, items, async () => {
		const { body } = await apiRequest.call(this, {
			method: 'GET',
			path: PATHS.creditsBalance,
			schema: balanceSchema,
		});
		return body as IDataObject;
	});
};
