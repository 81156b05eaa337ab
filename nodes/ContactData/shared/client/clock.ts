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

/** How much of a wait of `ms` is waited in real time; the rest moves the clock on. */
export function realPartOf(ms: number): number {
	const real = ms * timeScale.waits;
	skippedMs += ms - real;
	return real;
}

/** The real time a call waits for an answer, for a credential's Timeout of `ms`. */
export function realTimeoutOf(ms: number): number {
	return Math.max(1, Math.round(ms * timeScale.timeouts));
}
