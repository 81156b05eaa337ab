/** Runs the operation the node's Resource and Operation parameters name (as Airtable v2's router). */
import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import type { ContactDataType, Operations, Resource } from './node.type';
import { contactOperations } from './resources/contact';
import { creditsOperations } from './resources/credits';
import { savedListOperations } from './resources/savedList';
import type { OperationExecute } from './shared/items/items';

export const OPERATIONS: { [R in Resource]: Operations<R> } = {
	contact: contactOperations,
	savedList: savedListOperations,
	credits: creditsOperations,
};

/** Whether the parameters name a pair the node has (a hand-edited or older workflow may not). */
function isOperation(pair: { resource: string; operation: string }): pair is ContactDataType {
	const has = (map: object, key: string) => Object.prototype.hasOwnProperty.call(map, key);
	return (
		has(OPERATIONS, pair.resource) && has(OPERATIONS[pair.resource as Resource], pair.operation)
	);
}

function operationOf(node: ContactDataType): OperationExecute {
	switch (node.resource) {
		case 'contact':
			return OPERATIONS.contact[node.operation];
		case 'savedList':
			return OPERATIONS.savedList[node.operation];
		case 'credits':
			return OPERATIONS.credits[node.operation];
	}
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const pair = {
		resource: String(this.getNodeParameter('resource', 0)),
		operation: String(this.getNodeParameter('operation', 0)),
	};
	if (!isOperation(pair)) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${pair.operation}" of "${pair.resource}" is not supported`,
		);
	}
	return [await operationOf(pair).call(this, this.getInputData())];
}
