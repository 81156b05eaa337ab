/**
 * Pacing by the rate-limit headers, without a coordinator: one window per base URL, key and class,
 * shared by every execution in this process. Calls the API counts that this process did not send
 * are other processes' (n8n workers, other machines). While the window has room, a call goes at
 * once; alone on the key, a process then waits for the Reset exactly; with others, each spaces its
 * calls to keep its share of a little under the limit, and none wakes at the same instant.
 */
import * as clock from './clock';
import { HEADERS, RATE_LIMIT_WINDOW_MS } from './contract';
import { numberHeader, type ResponseHeaders } from './headers';
import { pause, waitFor, type WaitContext } from './waits';

/** The share of the limit processes sharing a key aim at together: slots left for timing noise. */
const SHARED_TARGET = 0.95;
/** While more calls than this share of the limit (or MIN_HEADROOM) are left, a call goes at once. */
const HEADROOM_SHARE = 0.1;
/** Above the calls a few processes can have in flight at once. */
const MIN_HEADROOM = 4;
/** Calls counted beyond this process's own before others are assumed (an edge may be off). */
const OTHERS_TOLERANCE = 2;

export class RateWindow {
	/** Calls left as the last counted answer told; null before any. */
	remaining: number | null = null;
	/** When (epoch ms) a slot frees, as the last answer told. */
	resetAt = 0;
	/** Calls of one window go one at a time, so every call sees the latest headers. */
	tail: Promise<void> = Promise.resolve();
	limit: number | null = null;
	/** The longest Reset seen (0: none yet). */
	windowMs = 0;
	/** When this process sent the calls the API still counts, oldest first. */
	counted: number[] = [];
	othersUntil = 0;
	/** While others use the key: the gap between this process's calls that keeps its share. */
	spacingMs = 0;
	/** Others' calls in the window at the last counted answer, and their recent pace. */
	others = 0;
	othersPerMs = 0;
	answeredAt = 0;
	lastSentAt = 0;
	/** Calls waiting or under way in `inTurn`. */
	inTurn = 0;
	idleSince = 0;
}

/** Windows kept beyond those in use (a long-running n8n sees many keys); least recently used go. */
export const MAX_RATE_WINDOWS = 1_000;

const rateWindows = new Map<string, RateWindow>();

export function rateWindowOf(name: string): RateWindow {
	const window = rateWindows.get(name) ?? new RateWindow();
	// Taken out and put back last, so the map's order is the least recently used first.
	if (!rateWindows.delete(name)) dropIdleWindows(MAX_RATE_WINDOWS - 1);
	rateWindows.set(name, window);
	return window;
}

/**
 * Drops the least recently used idle windows until `room` are left. A window is in use while a call
 * is in turn and for a minute after: a call backing off between attempts still holds it.
 */
function dropIdleWindows(room: number): void {
	const usedSince = clock.now() - RATE_LIMIT_WINDOW_MS;
	for (const [name, window] of rateWindows) {
		if (rateWindows.size <= room) return;
		if (window.inTurn === 0 && window.idleSince <= usedSince) rateWindows.delete(name);
	}
}

function windowMsOf(window: RateWindow): number {
	return window.windowMs || RATE_LIMIT_WINDOW_MS;
}

function evenSpacingOf(window: RateWindow): number {
	return window.limit ? windowMsOf(window) / window.limit : 0;
}

/** The calls left at `time`: the last answer's, less what others have taken since at their pace. */
function leftAt(window: RateWindow, remaining: number, time: number): number {
	return remaining - window.othersPerMs * Math.max(0, time - window.answeredAt);
}

function paceMs(window: RateWindow, now: number): number {
	const { remaining } = window;
	if (remaining === null) return 0;
	const alone = now >= window.othersUntil;
	if (alone) return remaining > 0 ? 0 : Math.max(0, window.resetAt - now);
	const headroom = Math.max(MIN_HEADROOM, Math.ceil((window.limit ?? 0) * HEADROOM_SHARE));
	if (leftAt(window, remaining, now) > headroom) return 0;
	// Jittered by a tenth, so that processes with the same spacing drift apart instead of colliding.
	const jitter = 0.9 + Math.random() / 5;
	const untilTurn = Math.max(0, window.lastSentAt + window.spacingMs * jitter - now);
	if (leftAt(window, remaining, now + untilTurn) > 0) return untilTurn;
	// Others have likely taken what was left: each process wakes at its own moment within two even
	// slots after the Reset (0.1 s while the limit is unknown), so that none always comes back last.
	const wakeSpreadMs = Math.random() * (evenSpacingOf(window) * 2 || 100);
	return Math.max(untilTurn, window.resetAt + wakeSpreadMs - now);
}

/** Sends `send` after the window's calls before it, as late as the pacing says. */
export async function inTurn<R>(
	context: WaitContext,
	window: RateWindow | undefined,
	itemIndex: number | undefined,
	send: (sentAt: number) => Promise<R>,
): Promise<R> {
	if (!window) return await send(clock.now());
	const before = window.tail;
	let release = () => {};
	const mine = new Promise<void>((resolve) => (release = resolve));
	// The next call waits for this one and for the one before it, even if this one is stopped early.
	window.tail = before.then(() => mine);
	window.inTurn++;
	try {
		await waitFor(context, before, itemIndex);
		const wait = paceMs(window, clock.now());
		if (wait > 0) await pause(context, wait, itemIndex);
		window.lastSentAt = clock.now();
		return await send(window.lastSentAt);
	} finally {
		window.inTurn--;
		window.idleSince = clock.now();
		release();
	}
}

/** Notes the limit and the window's length the headers tell; returns the Reset, in ms. */
function noteWindow(window: RateWindow, headers: ResponseHeaders): number {
	const resetMs = (numberHeader(headers, HEADERS.rateLimitReset) ?? 0) * 1000;
	window.limit = numberHeader(headers, HEADERS.rateLimitLimit) ?? window.limit;
	window.windowMs = Math.min(RATE_LIMIT_WINDOW_MS, Math.max(window.windowMs, resetMs));
	return resetMs;
}

/** An answer the API counted (any with rate-limit headers but a 429): what is left, and others' use. */
export function noteCountedCall(window: RateWindow, sentAt: number, headers: ResponseHeaders) {
	const remaining = numberHeader(headers, HEADERS.rateLimitRemaining);
	if (remaining === undefined) return;
	const now = clock.now();
	const resetMs = noteWindow(window, headers);
	window.remaining = remaining;
	window.resetAt = now + resetMs;
	window.counted.push(sentAt);
	while (window.counted.length > 0 && window.counted[0] <= now - windowMsOf(window))
		window.counted.shift();
	if (window.limit) noteShares(window, window.limit, window.limit - remaining, now);
	window.answeredAt = now;
}

/** `used`: the calls the API counts in its window of `limit`, this process's among them. */
function noteShares(window: RateWindow, limit: number, used: number, now: number): void {
	const mine = Math.max(1, window.counted.length);
	const others = Math.max(0, used - mine);
	if (others > OTHERS_TOLERANCE) window.othersUntil = now + windowMsOf(window);
	// Others' pace from how their calls grew, smoothed over a tenth of a window. (Calls leaving the
	// window hide some new ones: the pace is a floor; the headroom covers the rest.)
	const elapsed = Math.max(1, now - window.answeredAt);
	const weight = Math.min(1, elapsed / (windowMsOf(window) / 10));
	const pace = Math.max(0, others - window.others) / elapsed;
	window.othersPerMs = weight * pace + (1 - weight) * window.othersPerMs;
	window.others = others;
	// This process's share of the calls in the window, of the target: the shares add up to it.
	const shareSpacing = (windowMsOf(window) * Math.max(used, mine)) / (limit * SHARED_TARGET * mine);
	window.spacingMs = Math.min(windowMsOf(window), Math.max(evenSpacingOf(window), shareSpacing));
}

/** A 429 (not counted): others took the slots counted on; wait as asked, then wake as `paceMs` says. */
export function noteRateLimited(window: RateWindow, waitMs: number, headers: ResponseHeaders) {
	const now = clock.now();
	noteWindow(window, headers);
	window.othersUntil = now + windowMsOf(window);
	window.remaining = 0;
	window.resetAt = now + waitMs;
}
