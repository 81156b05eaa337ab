/**
 * Idempotency keys of charging calls. A key is derived from where the call is made (workflow,
 * execution, node, item) and what it sends, so every attempt of the same call carries the same key:
 * the transport's retries, the replay of a lost answer at the end of the run, and n8n's Retry On
 * Fail of the node. The API answers a replay with the first answer and its charge, and charges
 * nothing more. Another execution, node or body gives another key; the same body sent again by
 * the same node within one execution (a loop, an agent repeating a tool call) is answered from the
 * first, which is what the service would return anyway, and counted once.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * Stands in for the execution id where there is none: n8n runs an MCP tool call before an execution
 * exists. Drawn once per node run, so the call's own retries and replays keep their key, and no later
 * call (of the same session or another) gets an earlier call's answer replayed. Keyed by the
 * context, so a nonce goes with its run.
 */
const nonces = new WeakMap<object, string>();
function nonceOf(context: IExecuteFunctions): string {
	let nonce = nonces.get(context);
	if (nonce === undefined) {
		nonce = `call-${randomUUID()}`;
		nonces.set(context, nonce);
	}
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
