/**
 * The floors the figures are compared with. Rate-limit time is in real seconds of the sandbox's
 * scaled clock: a minute of rate limit lasts 60 / timeScale seconds.
 */
import { LIMITS, RATE_LIMIT_WINDOW_MS } from '../../nodes/ContactData/shared/client/contract';

const WINDOW_S = RATE_LIMIT_WINDOW_MS / 1000;

/** The fewest unlock calls for this many distinct ids (100 ids per call). */
export function unlockFloorCalls(uniqueIds: number): number {
	return Math.ceil(uniqueIds / LIMITS.idsPerUnlock);
}

/** The fewest search calls to page through this many results (100 per page). */
export function searchFloorCalls(results: number): number {
	return Math.ceil(Math.min(results, LIMITS.searchPagingCap) / LIMITS.searchLimitMax);
}

/**
 * The full-rate floor: `calls` spent at the contract's rate, `limit` per rolling minute, with no
 * pause and no 429: calls × 60 s / limit / timeScale. Per-call latency excluded.
 */
export function fullRateFloorS(calls: number, limitPerMinute: number, timeScale: number): number {
	return (calls * WINDOW_S) / limitPerMinute / timeScale;
}

/**
 * The idle-window floor: from a window with no recent calls the contract admits `limit` calls at
 * once, and call k no earlier than floor(k / limit) windows after the first. So the last call may
 * start after floor((calls - 1) / limit) windows: 0 while the job fits in one window, in which case
 * only request latency bounds it. Per-call latency excluded.
 */
export function idleWindowFloorS(calls: number, limitPerMinute: number, timeScale: number): number {
	if (calls <= 0) return 0;
	return (Math.floor((calls - 1) / limitPerMinute) * WINDOW_S) / timeScale;
}

export const FLOOR_FORMULAS = {
	floor_s:
		'the fastest schedule the contract allows for floor_calls from an idle rolling window, one call at a time, each call taking the latency a plain undici client measured for the same calls: call k starts when call k-1 answered and no sooner than 60 s / time_scale after call k-limit started (= floor_calls x latency while floor_calls <= limit)',
	full_rate_floor_s:
		'floor_calls x 60 s / limit / time_scale (the calls spent at the contract rate; latency excluded)',
	idle_window_floor_s:
		'floor((floor_calls - 1) / limit) x 60 s / time_scale (a fresh window admits `limit` calls at once; latency excluded)',
} as const;

/**
 * The contract floor with latency: the end of the fastest schedule a client sending one call at a
 * time can keep from an idle window, when every call takes `latencyS` (measured by a plain client
 * sending the same calls). Call k starts once call k-1 has answered and no sooner than one window
 * after call k-limit started. While calls <= limit this is calls x latency: the latency-bound case.
 */
export function scheduleFloorS(
	calls: number,
	limitPerMinute: number,
	timeScale: number,
	latencyS: number,
): number {
	const windowS = WINDOW_S / timeScale;
	const starts: number[] = [];
	let end = 0;
	for (let k = 0; k < calls; k++) {
		const start = Math.max(end, k >= limitPerMinute ? starts[k - limitPerMinute] + windowS : 0);
		starts.push(start);
		end = start + latencyS;
	}
	return end;
}
