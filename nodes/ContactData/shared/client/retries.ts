/** When a call is sent again, and how a failed request tells a timeout or a lost connection. */
import { HEADERS, TRANSIENT_STATUSES } from './contract';
import { numberHeader, type ResponseHeaders } from './headers';

/** A 429 did nothing, so any call may wait and go again, for this many rate windows at most. */
export const RATE_LIMITED_WINDOWS = 5;
/** Attempts in all for a call that may be repeated after a 5xx, a lost connection or a garbled body. */
export const MAX_TRANSIENT_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;
/** Used when a 429 carries no usable Retry-After. */
const FALLBACK_RETRY_AFTER_MS = 1_000;

/** The wait after `failures` failed attempts: doubling, capped. */
export function backoffMs(failures: number): number {
	return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
}

/** A 429's wait outside any rate window, spread so that callers told one instant wake apart. */
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

/** The codes of a connection lost on the way (worth another try), and words for common ones. */
export const CONNECTIONS_LOST: Record<string, string | undefined> = {
	ECONNRESET: 'the connection was closed before the answer came',
	ECONNABORTED: 'the connection was broken off',
	EPIPE: 'the connection was closed while sending',
	EAI_AGAIN: 'the host name could not be looked up',
	ETIMEDOUT: undefined,
	ESOCKETTIMEDOUT: undefined,
	ERR_BAD_RESPONSE: undefined,
	UND_ERR_SOCKET: undefined,
};

export function isConnectionLost(code: string | undefined): code is string {
	return code !== undefined && code in CONNECTIONS_LOST;
}

/** A failed request and its causes, outermost first (n8n and the HTTP library wrap each other). */
function* causesOf(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		yield current as { code?: unknown; message?: unknown };
		current = (current as { cause?: unknown }).cause;
	}
}

export function isTimeout(error: unknown): boolean {
	return [...causesOf(error)].some(
		({ code, message }) =>
			(code === 'ETIMEDOUT' && /timeout/i.test(String(message))) ||
			(code === 'ECONNABORTED' && /timeout of \d+ms exceeded/.test(String(message))),
	);
}

/** The system code (`ECONNRESET`…) of a failed request, looked for through its causes. */
export function errorCodeOf(error: unknown): string | undefined {
	const found = [...causesOf(error)].find(({ code }) => /^[A-Z_]+$/.test(String(code)));
	return found?.code as string | undefined;
}
