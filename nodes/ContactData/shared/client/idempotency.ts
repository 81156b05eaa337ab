/**
 * Idempotency keys of charging calls, from where the call is made (workflow, execution, node, item)
 * and what it sends: every attempt of a call (retries, a lost answer's replay, Retry On Fail)
 * carries the same key, so the API answers a replay with the first answer and charge.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** Stands in for the execution id where there is none (an MCP tool call): one per node run. */
const nonces = new WeakMap<object, string>();

function nonceOf(context: IExecuteFunctions): string {
	const nonce = nonces.get(context) ?? `call-${randomUUID()}`;
	nonces.set(context, nonce);
	return nonce;
}

export function idempotencyKeyFor(
	context: IExecuteFunctions,
	path: string,
	body: IDataObject,
	itemIndex?: number,
): string {
	const where = [
		context.getWorkflow().id ?? '',
		context.getExecutionId() ?? nonceOf(context),
		context.getNode().id,
		path,
		itemIndex ?? null,
	];
	const digest = createHash('sha256')
		.update(JSON.stringify([where, body]))
		.digest('hex');
	return `n8n-${digest.slice(0, 48)}`;
}
