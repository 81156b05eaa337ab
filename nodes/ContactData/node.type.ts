/** Resources and their operations typed together (n8n's AllEntities, as in Airtable v2). */
import type { AllEntities, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationExecute } from './shared/items/items';

type NodeMap = {
	contact: 'search' | 'unlock' | 'enrich';
	savedList: 'getMany' | 'get' | 'create' | 'addContacts' | 'removeContacts' | 'delete' | 'export';
	credits: 'getBalance' | 'fileRefundClaim';
};

export type ContactDataType = AllEntities<NodeMap>;

export type Resource = keyof NodeMap;

export interface Operation {
	description: INodeProperties[];
	execute: OperationExecute;
}

export type Operations<R extends Resource> = { [O in NodeMap[R]]: Operation };

/** Each operation's panel: the resource's Operation parameter, then the operation's own. */
export function panelsOf<R extends Resource>(
	resource: R,
	operations: Operations<R>,
	options: Array<INodePropertyOptions & { value: NodeMap[R] }>,
	defaultOperation: NodeMap[R],
): INodeProperties[][] {
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
	return Object.values<Operation>(operations).map(({ description }) => [operation, ...description]);
}
