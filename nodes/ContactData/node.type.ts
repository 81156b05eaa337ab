/**
 * The node's resources and the operations of each, typed together (n8n's AllEntities, as in
 * Airtable v2): the router, the operation maps and the Operation options cannot name a pair the
 * node does not have.
 */
import type { AllEntities, INodePropertyOptions } from 'n8n-workflow';

import type { OperationExecute } from './shared/items/items';

type NodeMap = {
	contact: 'search' | 'unlock' | 'enrich';
	savedList: 'getMany' | 'get' | 'create' | 'addContacts' | 'removeContacts' | 'delete' | 'export';
	credits: 'getBalance' | 'fileRefundClaim';
};

/** A resource with one of its operations. */
export type ContactDataType = AllEntities<NodeMap>;

export type Resource = keyof NodeMap;

/** The code of each operation of a resource: every one of them, and no other. */
export type Operations<R extends Resource> = { [O in NodeMap[R]]: OperationExecute };

/** An option of a resource's Operation parameter: its value is one of that resource's operations. */
export type OperationOption<R extends Resource> = INodePropertyOptions & { value: NodeMap[R] };
