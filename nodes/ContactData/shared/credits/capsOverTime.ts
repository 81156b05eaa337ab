/**
 * Caps over time: Max Credits per Day of a node (workflow and node id) across its runs and MCP tool
 * calls, and Max Credits per MCP Session. n8n runs every MCP call of regular mode in one process, so
 * their tallies live in this module's memory: a call reserves before its first await, and calls
 * running at once never pass a cap together. Where that memory is not shared (queue-mode workers, a
 * restart) each process counts from 0: the bound is one cap per process.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { capOverTimeOf } from '../parameters/capsOverTime';

/** Credits counted against one cap: charged as the API reported, and reserved for calls not settled. */
export interface Tally {
	charged: number;
	reserved: number;
}

/** A cap and what is counted against it. */
export interface Cap {
	/** As the editor shows it: "Max Credits", "Max Credits per Day". */
	label: string;
	max: number;
	tally: Tally;
	/** The field of the tool answer that says what is left of it. */
	leftField?: 'left_today' | 'left_in_session';
}

/** Tallies kept at most (a tally per node and day, per node and session): the oldest go first. */
const MAX_TALLIES = 10_000;
const tallies = new Map<string, Tally>();

/** The tally under `key`, made at 0 when new. */
export function tallyOf(key: string, store: Map<string, Tally> = tallies): Tally {
	let tally = store.get(key);
	if (!tally) {
		tally = { charged: 0, reserved: 0 };
		store.set(key, tally);
		if (store.size > MAX_TALLIES) store.delete(store.keys().next().value as string);
	}
	return tally;
}

/** The UTC day of a time, as the key of its daily tally. */
export function dayOf(now: number): string {
	return new Date(now).toISOString().slice(0, 10);
}

/** Credits a cap can still take. */
export function leftOf({ max, tally }: Cap): number {
	return Math.max(0, max - tally.charged - tally.reserved);
}

/**
 * The MCP session of this call: n8n's MCP Server Trigger (2.1, Streamable HTTP) hands the tool the
 * request's headers as `$json.headers`; SSE clients show none.
 */
function sessionIdOf(context: IExecuteFunctions): string | undefined {
	const headersOf = (json: unknown) => (json as { headers?: Record<string, unknown> } | undefined)?.headers;
	const headers = headersOf(context.getWorkflowDataProxy(0).$json) ?? headersOf(context.getInputData()[0]?.json);
	const id = headers?.['mcp-session-id'];
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The caps over time set on this node, with their tallies as of `now`; none when unset. */
export function capsOverTimeOf(context: IExecuteFunctions, now = Date.now()): Cap[] {
	const node = `${context.getWorkflow().id ?? ''}|${context.getNode().id}`;
	const caps: Cap[] = [];
	const perDay = capOverTimeOf(context, 'maxCreditsPerDay');
	if (perDay > 0) {
		const tally = tallyOf(`${node}|day|${dayOf(now)}`);
		caps.push({ label: 'Max Credits per Day', max: perDay, tally, leftField: 'left_today' });
	}
	const perSession = capOverTimeOf(context, 'maxCreditsPerSession');
	const session = perSession > 0 ? sessionIdOf(context) : undefined;
	if (session !== undefined) {
		const tally = tallyOf(`${node}|session|${session}`);
		caps.push({ label: 'Max Credits per MCP Session', max: perSession, tally, leftField: 'left_in_session' });
	}
	return caps;
}
