/**
 * The node's resources and the operations of each, typed together (n8n's AllEntities, as in
 * Airtable v2): the operation maps and the Operation options cannot name a pair the node does not
 * have.
 */
import type { AllEntities, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationExecute } from './shared/items/items';

type NodeMap = {
	contact: 'search' | 'unlock' | 'enrich';
	savedList: 'getMany' | 'get' | 'create' | 'addContacts' | 'removeContacts' | 'delete' | 'export';
	credits: 'getBalance' | 'fileRefundClaim';
};

/** A resource with one of its operations. */
export type ContactDataType = AllEntities<NodeMap>;

export type Resource = keyof NodeMap;

/** An operation's file: its parameters and its code. */
export interface Operation {
	description: INodeProperties[];
	execute: OperationExecute;
}

/** The operations of a resource: every one of them, and no other. */
export type Operations<R extends Resource> = { [O in NodeMap[R]]: Operation };

/**
 * Each operation's panel, in the order of `operations`: the resource's Operation parameter (its
 * options one for each operation), then the operation's own parameters.
 */
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
