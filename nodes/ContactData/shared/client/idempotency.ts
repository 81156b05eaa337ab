/**
 * Idempotency keys of charging calls, derived from where the call is made (workflow, execution,
 * node, item) and what it sends: every attempt of a call (the transport's retries, the replay of a
 * lost answer, n8n's Retry On Fail) carries the same key, and the API answers a replay with the
 * first answer and its charge. The same body sent again by the same node within one execution (a
 * loop, an agent repeating a tool call) is answered from the first, as the service would anyway.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * Stands in for the execution id where there is none (n8n runs an MCP tool call before an execution
 * exists): one per node run, keyed by its context, so no later call gets an earlier one's answer.
 */
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
