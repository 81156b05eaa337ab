/** Runs the operation the node's Resource and Operation parameters name (as Airtable v2's router). */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, Operations, Resource } from './node.type';
import { contactOperations } from './resources/contact';
import { creditsOperations } from './resources/credits';
import { savedListOperations } from './resources/savedList';
import { OperationError } from './shared/client/failures';

export const OPERATIONS: { [R in Resource]: Operations<R> } = {
	contact: contactOperations,
	savedList: savedListOperations,
	credits: creditsOperations,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = String(this.getNodeParameter('resource', 0));
	const operation = String(this.getNodeParameter('operation', 0));
	const operations: Record<string, Record<string, Operation>> = OPERATIONS;
	// Own keys only: a hand-edited or older workflow may name anything, "constructor" included.
	const has = (map: object, key: string) => Object.prototype.hasOwnProperty.call(map, key);
	if (!has(operations, resource) || !has(operations[resource], operation)) {
		throw new OperationError(
			this,
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return [await operations[resource][operation].execute.call(this, this.getInputData())];
}
