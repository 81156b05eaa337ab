import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { changeMembers, memberParameters } from './members';

export const description: INodeProperties[] = memberParameters('addContacts', 'The contacts to add.');

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await changeMembers.call(this, items, 'add');
}
