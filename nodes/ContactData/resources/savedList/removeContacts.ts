import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { changeMembers, memberParameters } from './members';

export const description: INodeProperties[] = memberParameters(
	'removeContacts',
	'The contacts to remove. A contact the list’s filters match is excluded from the list.',
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await changeMembers.call(this, items, 'remove');
}
