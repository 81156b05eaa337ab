import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { changeMembers, memberParameters } from './members';

export const description: INodeProperties[] = memberParameters(
	'addContacts',
	'The contacts of all input items are added together: deduplicated and sent 1,000 per call.',
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await changeMembers.call(this, items, 'add');
}
