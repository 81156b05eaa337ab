/**
 * When a call is sent again: after a 429 for a few rate windows, after a 5xx, a lost connection or a
 * garbled body a few times with a doubling wait; and how a failed request tells a timeout or a lost
 * connection.
 */
import { HEADERS, TRANSIENT_STATUSES } from './contract';
import { numberHeader, type ResponseHeaders } from './headers';

/**
 * 429 answers are not charged or processed, so any call may wait and go again; for this many rate
 * windows at most (a count would run out while other processes sharing the key take the slots).
 */
export const RATE_LIMITED_WINDOWS = 5;
/** Attempts in all for a call that may be repeated after a 5xx, a lost connection or a garbled body. */
export const MAX_TRANSIENT_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;
/** Used when a 429 carries no usable Retry-After. */
const FALLBACK_RETRY_AFTER_MS = 1_000;

/** The wait before attempt `failures + 1` of a call that failed `failures` times: doubling, capped. */
export function backoffMs(failures: number): number {
	return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
}

/**
 * The wait after a 429 for a call outside any rate-limit window (it has no pacing to spread the
 * wake-ups): lengthened by up to a quarter and a little more, so that callers told the same instant
 * do not all send again at once.
 */
export function jittered(ms: number): number {
	return ms * (1 + Math.random() / 4) + Math.random() * 100;
}

/** The wait a 429 asks for: its Retry-After, else its rate-limit reset, else a second. */
export function rateLimitedWaitMs(headers: ResponseHeaders): number {
	const seconds =
		numberHeader(headers, HEADERS.retryAfter) ?? numberHeader(headers, HEADERS.rateLimitReset);
	return seconds !== undefined ? seconds * 1000 : FALLBACK_RETRY_AFTER_MS;
}

/** Whether a status may pass if the call is sent again (429 and the 5xx the contract names). */
export function isTransientStatus(statusCode: number): boolean {
	return (TRANSIENT_STATUSES as readonly number[]).includes(statusCode);
}

const CONNECTION_ERROR_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'EPIPE',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EAI_AGAIN',
	'ERR_BAD_RESPONSE',
	'UND_ERR_SOCKET',
]);

/** Whether a system code is that of a connection lost on the way (worth another try). */
export function isConnectionLost(code: string | undefined): code is string {
	return code !== undefined && CONNECTION_ERROR_CODES.has(code);
}

/** A failed request and its causes, outermost first (n8n and the HTTP library wrap each other). */
function* causesOf(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		yield current as { code?: unknown; message?: unknown };
		current = (current as { cause?: unknown }).cause;
	}
}

/** Whether a request failed for want of an answer within its timeout. */
export function isTimeout(error: unknown): boolean {
	for (const { code, message } of causesOf(error)) {
		if (code === 'ETIMEDOUT' && typeof message === 'string' && /timeout/i.test(message))
			return true;
		if (
			code === 'ECONNABORTED' &&
			typeof message === 'string' &&
			/timeout of \d+ms exceeded/.test(message)
		)
			return true;
	}
	return false;
}

/** The system code (`ECONNRESET`…) of a failed request, looked for through its causes. */
export function errorCodeOf(error: unknown): string | undefined {
	for (const { code } of causesOf(error)) {
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
	}
	return undefined;
}
