/**
 * The tallies of the caps over time (Max Credits per Day, per MCP Session), kept in this process's
 * memory, bounded: what the credit rules (./rules) count against beyond a run's own Max Credits.
 */
import type { Tally } from './rules';

/**
 * Tallies of caps over time in this process. Past the limit only the least recently used session
 * tally is dropped (its session then starts afresh; the daily cap still holds), and a day's tally
 * only once that day is over: no eviction raises what the daily cap allows. A key's kind is its
 * first word, so no session id (which the MCP client sends) can pass for a day.
 */
const MAX_TALLIES = 10_000;
const tallies = new Map<string, Tally>();
/** The latest day each store counted: a clock set back never reopens a day already dropped. */
const latestDays = new WeakMap<Map<string, Tally>, string>();

/** The tally of a cap over time: per node and UTC day of `now`, or per node and MCP session. */
export function tallyOf(
	node: string,
	over: { now: number } | { session: string },
	store = tallies,
): Tally {
	const day = 'now' in over ? dayOf(store, over.now) : undefined;
	const key = 'session' in over ? `session|${node}|${over.session}` : `day|${day}|${node}`;
	const tally = store.get(key) ?? { charged: 0, reserved: 0 };
	// Used last, so dropped last.
	store.delete(key);
	store.set(key, tally);
	if (day) dropPastDays(store, day);
	if (store.size > MAX_TALLIES) dropOldestSession(store);
	return tally;
}

function dayOf(store: Map<string, Tally>, now: number): string {
	const day = new Date(now).toISOString().slice(0, 10);
	const latest = latestDays.get(store);
	if (latest !== undefined && latest > day) return latest;
	latestDays.set(store, day);
	return day;
}

function dropPastDays(store: Map<string, Tally>, today: string): void {
	for (const key of store.keys())
		if (key.startsWith('day|') && key.slice(4, 14) < today) store.delete(key);
}

function dropOldestSession(store: Map<string, Tally>): void {
	for (const key of store.keys())
		if (key.startsWith('session|')) {
			store.delete(key);
			return;
		}
}
