/**
 * The one seam of the transport's time: its waits (backoff, Retry-After, pacing), its clock and its
 * call timeouts. n8n runs it at scale 1, real time. A test of many fault sequences sets `waits` to 0:
 * each wait then takes no real time and moves this clock on instead, the way the sandbox runs rate
 * limits at a time scale; `timeouts` shortens the real time a call waits for an answer.
 */
export const timeScale = { waits: 1, timeouts: 1 };

/** Wait time the clock moved on without waiting (0 at scale 1). */
let skippedMs = 0;

/** Now, in the transport's time (epoch ms). */
export function now(): number {
	return Date.now() + skippedMs;
}

/**
 * The real time of the next slice (at most `sliceMs`) of a wait with `leftMs` to go; the clock moves
 * on by what the slice stands for beyond it.
 */
export function realSliceOf(leftMs: number, sliceMs: number): number {
	const real = Math.min(sliceMs, leftMs * timeScale.waits);
	const standsFor = real < sliceMs ? leftMs : real / timeScale.waits;
	skippedMs += standsFor - real;
	return real;
}

/** The real time a call waits for an answer, for a credential's Timeout of `ms`. */
export function realTimeoutOf(ms: number): number {
	return Math.max(1, Math.round(ms * timeScale.timeouts));
}
