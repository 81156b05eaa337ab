/** Waits that end when the user presses Stop (n8n's execution cancel signal). */
import { sleep, type INode } from 'n8n-workflow';

import { now, realSliceOf } from './clock';
import { OperationError } from './failures';

export interface WaitContext {
	getNode(): INode;
	getExecutionCancelSignal?: () => AbortSignal | undefined;
}

/** Waits go in slices this long, checking the cancel signal in between: Stop ends a wait this fast. */
const WAIT_SLICE_MS = 200;

export function cancelSignalOf(context: WaitContext): AbortSignal | undefined {
	return context.getExecutionCancelSignal?.();
}

export function stopped(context: WaitContext, itemIndex: number | undefined): OperationError {
	return new OperationError(context, 'The execution was cancelled', { itemIndex });
}

export async function pause(
	context: WaitContext,
	ms: number,
	itemIndex: number | undefined,
): Promise<void> {
	// In slices, not one sleep: Stop up to the last moment sends nothing more, and a wait past a
	// timer's 24.8 days does not end at once.
	const signal = cancelSignalOf(context);
	const until = now() + ms;
	for (;;) {
		if (signal?.aborted) throw stopped(context, itemIndex);
		const left = until - now();
		if (left <= 0) return;
		await sleep(realSliceOf(left, WAIT_SLICE_MS));
	}
}

/** Lets the rest of the process run (other executions' calls, timers), then goes on; Stop ends it. */
export async function letOthersRun(context: WaitContext, itemIndex?: number): Promise<void> {
	await pause(context, 0, itemIndex);
	await sleep(0);
	await pause(context, 0, itemIndex);
}

/** Waits for `promise` to settle, or throws when the user presses Stop first. */
export async function waitFor(
	context: WaitContext,
	promise: Promise<unknown>,
	itemIndex: number | undefined,
): Promise<void> {
	const signal = cancelSignalOf(context);
	let settled = false;
	const settle = () => (settled = true);
	const done = promise.then(settle, settle);
	while (!settled) {
		if (signal?.aborted) throw stopped(context, itemIndex);
		await Promise.race([done, sleep(WAIT_SLICE_MS)]);
	}
}
