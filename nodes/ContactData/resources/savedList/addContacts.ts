import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { savedListLocator } from '../../shared/descriptions';
import { changeMembers, contactIdsParameter } from './members';

const showFor = { show: { resource: ['savedList'], operation: ['addContacts'] } };

export const description: INodeProperties[] = [
	savedListLocator(showFor),
	contactIdsParameter(showFor, 'The contacts to add.'),
	{
		displayName:
			'The contacts of all input items are added together: deduplicated and sent 1,000 per call. The output is one item per list.',
		name: 'addNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor,
	},
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await changeMembers.call(this, items, 'add');
}
