import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { changeMembers, memberParameters } from './members';

export const description: INodeProperties[] = memberParameters(
	'removeContacts',
	'The contacts of all input items are removed together, 1,000 per call, even those the list’s filters match.',
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await changeMembers.call(this, items, 'remove');
}
