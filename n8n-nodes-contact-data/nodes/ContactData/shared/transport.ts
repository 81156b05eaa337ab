/**
 * The one place requests to the Contact Data API are made: authentication (through n8n's
 * `httpRequestWithAuthentication`), the https rule, a timeout on every call, pacing by the
 * rate-limit headers, retries, waits that end when the user presses Stop, and the mapping of API
 * errors to `NodeApiError`.
 *
 * Usable from any n8n context that has credentials and request helpers (the action node, the
 * trigger's webhook lifecycle, list searches).
 */
import { createHash } from 'node:crypto';
import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
	type ITriggerFunctions,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';
import type { ZodError, ZodType, ZodTypeDef } from 'zod';

import { apiError } from './apiErrors';
import { baseUrlProblem, isAllowedSignedUrl, normalizeBaseUrl } from './baseUrl';
import {
	HEADERS,
	RATE_LIMIT_WINDOW_MS,
	TRANSIENT_STATUSES,
	rateLimitClassOf,
	type RateLimitClass,
} from './contract';

/** The credential type every Contact Data node uses. */
export const CREDENTIAL_NAME = 'contactDataApi';

export interface ContactDataCredential {
	apiKey: string;
	baseUrl: string;
	/** Seconds a call may wait for an answer. */
	timeout?: number;
}

/** Seconds a call waits for an answer when the credential does not say. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

export type ApiContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

export interface ApiRequest<T = unknown> {
	method: 'GET' | 'POST' | 'DELETE';
	/** A path from the contract's PATHS, starting with /v1. */
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	/**
	 * Sent as `Idempotency-Key`. A call that carries one may be sent again after a 5xx or a lost
	 * connection: the API answers a replay with the first response and charges nothing more.
	 */
	idempotencyKey?: string;
	/**
	 * Whether sending the call again after a 5xx or a lost connection can do no harm (reads, free
	 * set-like changes, enrich whose re-unlock is free). GET and DELETE default to true; a POST
	 * defaults to false unless it carries an idempotency key.
	 */
	safeToRetry?: boolean;
	/** The input item the call is made for; named in errors. */
	itemIndex?: number;
	/** The parameter the id in the path comes from (e.g. "Saved List"); named when the API does not know the id. */
	pathParameter?: string;
	/**
	 * Checks (and types) a 2xx JSON body: the fields the node needs, everything else passed through.
	 * A body that is not JSON (garbled on the way) counts as a transient failure; JSON without a
	 * field the node needs is an error that names the field, and the call is not sent again.
	 */
	schema?: ZodType<T, ZodTypeDef, unknown>;
	/** Return the 2xx body as a stream (exports) instead of parsed JSON. */
	stream?: boolean;
}

export interface ApiResponse<T> {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: T;
}

// ---------------------------------------------------------------------------------------------
// Retry policy
// ---------------------------------------------------------------------------------------------

/**
 * 429 answers are not charged or processed, so any call may wait and go again; for this many rate
 * windows at most (a count would run out while other processes sharing the key take the slots).
 */
const RATE_LIMITED_WINDOWS = 5;
/** Attempts in all for a call that may be repeated after a 5xx, a lost connection or a garbled body. */
const MAX_TRANSIENT_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;
/** Used when a 429 carries no usable Retry-After. */
const FALLBACK_RETRY_AFTER_MS = 1_000;
/** Waits go in slices this long, checking the cancel signal in between: Stop ends a wait this fast. */
const WAIT_SLICE_MS = 200;

/** The wait before attempt `failures + 1` of a call that failed `failures` times: doubling, capped. */
function backoffMs(failures: number): number {
	return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
}

/**
 * A wait after a Reset or Retry-After, lengthened by up to a quarter and a little more, so that
 * processes sharing a key, told the same instant, do not all wake and send at once.
 */
function jittered(ms: number): number {
	return ms * (1 + Math.random() / 4) + Math.random() * 100;
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

// ---------------------------------------------------------------------------------------------
// Pacing: one window per base URL, key and rate-limit class, shared by every execution in this
// process (not with other processes: those are seen only through the headers). Keyed by a hash of
// the key, so the key itself is never kept here.
// ---------------------------------------------------------------------------------------------

interface RateWindow {
	/** Calls left in the window as the last answer told; null when unknown (send). */
	remaining: number | null;
	/** When (ms since epoch) to send again if `remaining` is 0: the Reset told, jittered. */
	resetAt: number;
	/** Calls of one window go one at a time, so every call sees the latest headers. */
	tail: Promise<void>;
	/** Calls a window allows (X-RateLimit-Limit), once an answer has said. */
	limit: number | null;
	/** The window's length as far as the answers tell: the longest Reset seen (0: none yet). */
	windowMs: number;
	/** Until when other clients are known to use the key: calls are then spaced by `spacingMs`. */
	sharedUntil: number;
	/**
	 * The gap between calls while the key is shared: window/limit at first, widened by half by each
	 * 429 and narrowed again by each call that goes through, so that processes that know nothing of
	 * each other settle on their shares of the limit.
	 */
	spacingMs: number;
	lastSentAt: number;
}

const rateWindows = new Map<string, RateWindow>();

function rateWindowKey({ baseUrl, keyHash }: ApiCredential, rateClass: RateLimitClass): string {
	return `${baseUrl}|${keyHash}|${rateClass}`;
}

function rateWindowOf(credential: ApiCredential, rateClass: RateLimitClass | null): RateWindow | undefined {
	if (!rateClass) return undefined;
	const key = rateWindowKey(credential, rateClass);
	let window = rateWindows.get(key);
	if (!window) {
		window = { remaining: null, resetAt: 0, tail: Promise.resolve(), limit: null, windowMs: 0, sharedUntil: 0, spacingMs: 0, lastSentAt: 0 };
		rateWindows.set(key, window);
	}
	return window;
}

/** How long the next call of a window waits before it is sent. */
function paceMs(window: RateWindow, now: number): number {
	if (window.remaining !== null && window.remaining <= 0) return Math.max(0, window.resetAt - now);
	if (now < window.sharedUntil) {
		// Jittered, so that processes with the same spacing drift apart instead of colliding.
		return Math.max(0, window.lastSentAt + window.spacingMs * (0.75 + Math.random() / 2) - now);
	}
	return 0;
}

/** The even gap between calls that keeps one client within the limit: window/limit. */
function evenSpacingMs(window: RateWindow): number {
	const windowMs = window.windowMs || RATE_LIMIT_WINDOW_MS;
	return window.limit ? windowMs / window.limit : 0;
}

async function inTurn<R>(
	context: ApiContext,
	window: RateWindow | undefined,
	itemIndex: number | undefined,
	send: () => Promise<R>,
): Promise<R> {
	if (!window) return await send();
	const before = window.tail;
	let release = () => {};
	const mine = new Promise<void>((resolve) => (release = resolve));
	// The next call waits for this one and for the one before it, even if this one is stopped early.
	window.tail = before.then(() => mine);
	try {
		await waitFor(context, before, itemIndex);
		const wait = paceMs(window, Date.now());
		if (wait > 0) await pause(context, wait, itemIndex);
		if (window.remaining !== null && window.remaining <= 0) window.remaining = null;
		window.lastSentAt = Date.now();
		return await send();
	} finally {
		release();
	}
}

function headerValue(headers: ApiResponse<unknown>['headers'], name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * A non-negative number header (a count, or seconds: the sandbox's scaled clock gives decimals);
 * undefined when absent or bad.
 */
function numberHeader(headers: ApiResponse<unknown>['headers'], name: string): number | undefined {
	const raw = headerValue(headers, name);
	if (raw === undefined || raw.trim() === '') return undefined;
	const seconds = Number(raw);
	return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** Marks the window as shared with other clients for the next window's length. */
function markShared(window: RateWindow, now: number): void {
	if (now >= window.sharedUntil) window.spacingMs = evenSpacingMs(window);
	window.sharedUntil = now + (window.windowMs || RATE_LIMIT_WINDOW_MS);
}

function noteRateHeaders(window: RateWindow | undefined, headers: ApiResponse<unknown>['headers'] = {}) {
	if (!window) return;
	const remaining = numberHeader(headers, HEADERS.rateLimitRemaining);
	if (remaining === undefined) return;
	const now = Date.now();
	const resetMs = (numberHeader(headers, HEADERS.rateLimitReset) ?? 0) * 1000;
	window.limit = numberHeader(headers, HEADERS.rateLimitLimit) ?? window.limit;
	window.windowMs = Math.min(RATE_LIMIT_WINDOW_MS, Math.max(window.windowMs, resetMs));
	// This process's calls of a window go one at a time, so each answer follows exactly one call of
	// ours: a bigger fall means other clients (other processes, other machines) use the key too.
	if (window.remaining !== null && window.remaining - remaining > 1) markShared(window, now);
	window.remaining = remaining;
	window.resetAt = now + (remaining <= 0 ? jittered(resetMs) : resetMs);
}

/** A call that went through: the gap between calls narrows back towards window/limit. */
function narrowSpacing(window: RateWindow | undefined) {
	if (!window) return;
	const even = evenSpacingMs(window);
	window.spacingMs = Math.max(even, window.spacingMs - even / 2);
}

function noteRateLimited(window: RateWindow | undefined, waitMs: number) {
	if (!window) return;
	const now = Date.now();
	// This process waits for Reset before its window runs out: a 429 means others took the slots.
	markShared(window, now);
	window.spacingMs = Math.min(window.windowMs || RATE_LIMIT_WINDOW_MS, Math.max(evenSpacingMs(window), window.spacingMs) * 1.5);
	window.remaining = 0;
	window.resetAt = now + jittered(waitMs);
}

// ---------------------------------------------------------------------------------------------
// Waits that end when the user presses Stop
// ---------------------------------------------------------------------------------------------

function cancelSignalOf(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

function stopped(context: ApiContext, itemIndex: number | undefined): NodeOperationError {
	return new NodeOperationError(context.getNode(), 'The execution was cancelled', { itemIndex });
}

/** Waits `ms`, in slices, so that Stop (n8n's execution cancel signal) ends the wait at once. */
async function pause(context: ApiContext, ms: number, itemIndex: number | undefined): Promise<void> {
	const signal = cancelSignalOf(context);
	const until = Date.now() + ms;
	for (;;) {
		if (signal?.aborted) throw stopped(context, itemIndex);
		const left = until - Date.now();
		if (left <= 0) return;
		await sleep(Math.min(WAIT_SLICE_MS, left));
	}
}

/** Waits for `promise` to settle, or throws when the user presses Stop first. */
async function waitFor(context: ApiContext, promise: Promise<unknown>, itemIndex: number | undefined): Promise<void> {
	const signal = cancelSignalOf(context);
	let settled = false;
	const done = promise.then(
		() => (settled = true),
		() => (settled = true),
	);
	while (!settled) {
		if (signal?.aborted) throw stopped(context, itemIndex);
		await Promise.race([done, sleep(WAIT_SLICE_MS)]);
	}
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/**
 * The credential of one execution context, fetched and checked once: n8n decrypts a credential on
 * every `getCredentials`, and a node run may make thousands of calls. Keyed by the context object,
 * so it lives as long as that run (or that webhook call, list search, trigger activation) does.
 */
const credentialsByContext = new WeakMap<ApiContext, Promise<ApiCredential>>();

interface ApiCredential {
	baseUrl: string;
	/** Names the key in the rate windows, so that the key itself is not kept there. */
	keyHash: string;
	/** Wiped from error texts: an API may echo the key it was sent. */
	apiKey: string;
	timeoutMs: number;
	/** Handed to `httpRequestWithAuthentication`, so that it does not fetch the credential again. */
	decrypted: ICredentialsDecrypted;
}

async function apiCredentialOf(context: ApiContext): Promise<ApiCredential> {
	let credential = credentialsByContext.get(context);
	if (!credential) {
		credential = fetchApiCredential(context);
		credentialsByContext.set(context, credential);
		// A refused credential is not kept: every item that asks again gets its own error.
		credential.catch(() => credentialsByContext.delete(context));
	}
	return await credential;
}

async function fetchApiCredential(context: ApiContext): Promise<ApiCredential> {
	const data = await context.getCredentials<ContactDataCredential>(CREDENTIAL_NAME);
	const baseUrl = String(data.baseUrl ?? '');
	const problem = baseUrlProblem(baseUrl);
	if (problem !== undefined) {
		throw new NodeOperationError(context.getNode(), problem, {
			description: 'Change the Base URL in the Contact Data API credential.',
		});
	}
	const details = context.getNode().credentials?.[CREDENTIAL_NAME];
	const timeoutSeconds = Number(data.timeout ?? DEFAULT_TIMEOUT_SECONDS);
	return {
		baseUrl: normalizeBaseUrl(baseUrl),
		keyHash: createHash('sha256')
			.update(String(data.apiKey ?? ''))
			.digest('hex')
			.slice(0, 16),
		apiKey: String(data.apiKey ?? ''),
		timeoutMs:
			(Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds : DEFAULT_TIMEOUT_SECONDS) * 1000,
		decrypted: {
			id: details?.id ?? '',
			name: details?.name ?? '',
			type: CREDENTIAL_NAME,
			data: { ...data } as unknown as ICredentialDataDecryptedObject,
		},
	};
}

type Attempt<T> =
	| { kind: 'ok'; response: ApiResponse<T> }
	| { kind: 'rateLimited'; waitMs: number; headers: ApiResponse<unknown>['headers'] }
	| { kind: 'transient'; reason: string; headers?: ApiResponse<unknown>['headers'] }
	| { kind: 'failed'; error: NodeApiError; headers: ApiResponse<unknown>['headers'] };

/**
 * Sends one API call: paced, retried where safe, and mapped to `NodeApiError` when it fails.
 * Resolves with the 2xx answer.
 */
export async function apiRequest<T = unknown>(
	this: ApiContext,
	request: ApiRequest<T>,
): Promise<ApiResponse<T>> {
	const credential = await apiCredentialOf(this);
	const window = rateWindowOf(credential, rateLimitClassOf(request.method, request.path));
	const safeToRetry =
		request.safeToRetry ?? (request.method !== 'POST' || request.idempotencyKey !== undefined);

	let rateLimitedSince: number | undefined;
	let longestRateWait = 0;
	let transientAttempts = 0;
	for (;;) {
		const attempt = await inTurn(this, window, request.itemIndex, async () => {
			const outcome = await sendOnce(this, credential, request);
			// Refused calls count against the limit too, and say so in their headers.
			if (outcome.kind === 'ok') {
				noteRateHeaders(window, outcome.response.headers);
				narrowSpacing(window);
			}
			if (outcome.kind === 'failed' || outcome.kind === 'transient') noteRateHeaders(window, outcome.headers);
			if (outcome.kind === 'rateLimited') {
				noteRateHeaders(window, outcome.headers);
				noteRateLimited(window, outcome.waitMs);
			}
			return outcome;
		});
		switch (attempt.kind) {
			case 'ok':
				return attempt.response;
			case 'failed':
				throw attempt.error;
			case 'rateLimited': {
				rateLimitedSince ??= Date.now();
				longestRateWait = Math.max(longestRateWait, attempt.waitMs);
				const windowMs = Math.max(window?.windowMs || RATE_LIMIT_WINDOW_MS, longestRateWait);
				if (Date.now() - rateLimitedSince >= RATE_LIMITED_WINDOWS * windowMs) {
					throw new NodeApiError(this.getNode(), { code: 'rate_limited' } as JsonObject, {
						message: 'The Contact Data API kept answering 429 (rate limited)',
						description: `Gave up after ${Math.round((Date.now() - rateLimitedSince) / 1000)} s of waiting as the API asked, ${RATE_LIMITED_WINDOWS} rate windows. Another workflow or program is using the same API key heavily.`,
						httpCode: '429',
						itemIndex: request.itemIndex,
					});
				}
				// With a window the wait happens in turn, before the next send.
				if (!window) await pause(this, jittered(attempt.waitMs), request.itemIndex);
				break;
			}
			case 'transient': {
				transientAttempts++;
				if (!safeToRetry || transientAttempts >= MAX_TRANSIENT_ATTEMPTS) {
					throw new NodeApiError(this.getNode(), { code: 'unavailable' } as JsonObject, {
						message: `The Contact Data API call failed: ${attempt.reason}`,
						description: safeToRetry
							? `${request.method} ${request.path} failed ${transientAttempts} times in a row. Try again later.`
							: `${request.method} ${request.path} was not sent again automatically, because repeating it could act twice. Check the result in the service before running it again.`,
						httpCode: '503',
						itemIndex: request.itemIndex,
					});
				}
				const delay = backoffMs(transientAttempts);
				this.logger.debug(
					`Contact Data API: ${attempt.reason} on ${request.method} ${request.path}; retrying in ${delay} ms (attempt ${transientAttempts + 1} of ${MAX_TRANSIENT_ATTEMPTS})`,
				);
				await pause(this, delay, request.itemIndex);
				break;
			}
		}
	}
}

async function sendOnce<T>(
	context: ApiContext,
	credential: ApiCredential,
	request: ApiRequest<T>,
): Promise<Attempt<T>> {
	const { baseUrl, decrypted } = credential;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs: request.qs,
		body: request.body,
		json: !request.stream,
		headers: {
			Accept: 'application/json',
			...(request.body ? { 'Content-Type': 'application/json' } : {}),
			...(request.idempotencyKey ? { 'Idempotency-Key': request.idempotencyKey } : {}),
		},
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// The API never redirects. Not following keeps the key from going to another address, and
		// spares every call the redirect-following wrapper around the request.
		disableFollowRedirect: true,
		timeout: credential.timeoutMs,
		...(request.stream ? { encoding: 'stream' as const } : {}),
	};
	let raw: ApiResponse<unknown>;
	try {
		raw = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_NAME,
			options,
			// A copy each time: n8n may add to the data it is given (pre-authentication).
			{ credentialsDecrypted: { ...decrypted, data: { ...decrypted.data } } },
		)) as ApiResponse<unknown>;
	} catch (error) {
		return requestFailed(context, credential, request, error);
	}

	const { statusCode, headers } = raw;
	if (statusCode >= 200 && statusCode < 300) {
		if (request.stream || !request.schema) {
			return { kind: 'ok', response: raw as unknown as ApiResponse<T> };
		}
		// n8n hands over a body that is not JSON as text: garbled on the way, worth another try.
		if (raw.body === null || typeof raw.body !== 'object') {
			return {
				kind: 'transient',
				reason: `the answer to ${request.method} ${request.path} was not readable`,
				headers,
			};
		}
		const checked = request.schema.safeParse(raw.body);
		if (!checked.success) {
			return { kind: 'failed', error: unexpectedAnswer(context, request, statusCode, checked.error), headers };
		}
		return { kind: 'ok', response: { statusCode, headers, body: checked.data } };
	}

	const body = request.stream ? await readJsonStream(raw.body as AsyncIterable<Buffer>) : raw.body;
	if (statusCode === 429) {
		const seconds =
			numberHeader(headers, HEADERS.retryAfter) ?? numberHeader(headers, HEADERS.rateLimitReset);
		return {
			kind: 'rateLimited',
			waitMs: seconds !== undefined ? seconds * 1000 : FALLBACK_RETRY_AFTER_MS,
			headers,
		};
	}
	if ((TRANSIENT_STATUSES as readonly number[]).includes(statusCode)) {
		return { kind: 'transient', reason: `the API answered ${statusCode}`, headers };
	}
	if (statusCode >= 300 && statusCode < 400) {
		const location = headerValue(headers, 'location');
		const error = new NodeApiError(context.getNode(), { code: 'redirected' } as JsonObject, {
			message: `The Contact Data API answered ${statusCode}, a redirect`,
			description: scrub(
				`The API does not redirect, so the call was not sent on${location ? ` to ${location}` : ''}. Check the Base URL in the Contact Data API credential (${baseUrl}).`,
				credential.apiKey,
			),
			httpCode: String(statusCode),
			itemIndex: request.itemIndex,
		});
		return { kind: 'failed', error, headers };
	}
	return {
		kind: 'failed',
		error: apiError(context, statusCode, scrub(body, credential.apiKey), request.itemIndex, request.pathParameter),
		headers,
	};
}

/** A call that got no answer: stopped, timed out, a lost connection (transient), or unreachable. */
function requestFailed(
	context: ApiContext,
	{ baseUrl, timeoutMs }: ApiCredential,
	request: ApiRequest<unknown>,
	error: unknown,
): Attempt<never> {
	const code = errorCodeOf(error);
	if (code === 'ERR_CANCELED') throw stopped(context, request.itemIndex);
	if (isTimeout(error)) {
		// Not sent again: an API that does not answer in this time would only be waited on again.
		throw new NodeApiError(context.getNode(), { code: 'timeout' } as JsonObject, {
			message: `The Contact Data API did not answer within ${timeoutMs / 1000} seconds`,
			description: `${request.method} ${request.path} got no answer, so it was not sent again. Try again later, or raise Timeout (Seconds) in the Contact Data API credential.`,
			itemIndex: request.itemIndex,
		});
	}
	if (code !== undefined && CONNECTION_ERROR_CODES.has(code)) {
		return { kind: 'transient', reason: `the connection was lost (${code})` };
	}
	// Only the code is kept: the original error holds the request, Authorization header included.
	if (code !== undefined && code in NOTHING_ANSWERS) throw nothingAnswers(context, baseUrl, code, request.itemIndex);
	throw new NodeApiError(context.getNode(), { code: code ?? 'request_failed' } as JsonObject, {
		message: `The Contact Data API could not be reached${code ? ` (${code})` : ''}`,
		description: `Check the Base URL in the Contact Data API credential (${baseUrl}).`,
		itemIndex: request.itemIndex,
	});
}

/** The codes of a request that found no server at the address, and what each means. */
const NOTHING_ANSWERS: Record<string, string> = {
	ECONNREFUSED: 'the host refused the connection',
	ENOTFOUND: 'no host has that name',
	EHOSTUNREACH: 'the host cannot be reached from this network',
	ENETUNREACH: 'the host cannot be reached from this network',
};

function nothingAnswers(context: ApiContext, baseUrl: string, code: string, itemIndex: number | undefined): NodeApiError {
	// Not the system's code as the error's code: n8n would replace the message with its own for it.
	return new NodeApiError(context.getNode(), { code: 'unreachable' } as JsonObject, {
		message: `Nothing answers at the Base URL "${baseUrl}"`,
		description: `Check the Base URL in the Contact Data API credential, and that the service is running at that address (${code}: ${NOTHING_ANSWERS[code]}).`,
		itemIndex,
	});
}

/**
 * A 2xx JSON answer without a field the node needs (or with it in another form): an error that
 * names the field. Not sent again: the API has carried the call out, and may have charged for it.
 */
function unexpectedAnswer(
	context: ApiContext,
	request: ApiRequest<unknown>,
	statusCode: number,
	error: ZodError,
): NodeApiError {
	const issue = error.issues[0];
	const field = issue.path.map(String).join('.') || 'its body';
	const received = 'received' in issue ? String(issue.received) : undefined;
	const headline =
		received === 'undefined' ? `without \`${field}\`` : `with \`${field}\` in a form the node does not read`;
	return new NodeApiError(context.getNode(), { code: 'unexpected_answer' } as JsonObject, {
		message: `The Contact Data API answered ${headline}`,
		description: `${request.method} ${request.path} answered ${statusCode}, but the node needs \`${field}\`${'expected' in issue ? ` (${String(issue.expected)})` : ''}: ${issue.message}. The call was not sent again, as the API may have carried it out already (a charged call may have been charged: see Credits → Get Balance).`,
		itemIndex: request.itemIndex,
	});
}

/** Whether a request failed for want of an answer within its timeout. */
function isTimeout(error: unknown): boolean {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const { code, message } = current as { code?: unknown; message?: unknown };
		if (code === 'ETIMEDOUT' && typeof message === 'string' && /timeout/i.test(message)) return true;
		if (code === 'ECONNABORTED' && typeof message === 'string' && /timeout of \d+ms exceeded/.test(message)) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}

/** `value` (a text, or a parsed body) with every copy of the API key wiped out. */
function scrub<V>(value: V, apiKey: string): V {
	if (apiKey.length < 4 || value === undefined) return value;
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	if (!text.includes(apiKey)) return value;
	const wiped = text.split(apiKey).join('[API key]');
	return (typeof value === 'string' ? wiped : JSON.parse(wiped)) as V;
}

/** Reads a small JSON answer (an error, or an export's 202) from a stream. */
export async function readJsonStream(stream: AsyncIterable<Buffer | string>): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		return text === '' ? undefined : (JSON.parse(text) as unknown);
	} catch {
		return text;
	}
}

function errorCodeOf(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------
// Signed export URLs
// ---------------------------------------------------------------------------------------------

/**
 * Opens a signed export URL as a stream. The URL carries its own signature, so it is fetched with
 * n8n's plain `httpRequest`, without the Authorization header: the key is not sent along. Like the
 * Base URL it must be https (plain http only on loopback, the sandbox): it is a bearer of the data.
 */
export async function openSignedUrl(
	this: ApiContext,
	url: string,
	itemIndex?: number,
): Promise<ApiResponse<AsyncIterable<Buffer>>> {
	const { timeoutMs } = await apiCredentialOf(this);
	if (!isAllowedSignedUrl(url)) {
		throw new NodeApiError(this.getNode(), { code: 'insecure_export_url' } as JsonObject, {
			message: 'The export URL the API gave is not https, so it was not opened',
			description: 'A signed export URL carries access to the file: it is opened over https only (plain http only for the local sandbox on localhost).',
			itemIndex,
		});
	}
	for (let attempt = 1; ; attempt++) {
		let response: ApiResponse<AsyncIterable<Buffer>>;
		try {
			response = (await this.helpers.httpRequest({
				method: 'GET',
				url,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: timeoutMs,
				...(cancelSignalOf(this) ? { abortSignal: cancelSignalOf(this) } : {}),
			})) as ApiResponse<AsyncIterable<Buffer>>;
		} catch (error) {
			const code = errorCodeOf(error);
			if (code === 'ERR_CANCELED') throw stopped(this, itemIndex);
			if (code !== undefined && CONNECTION_ERROR_CODES.has(code) && !isTimeout(error) && attempt < MAX_TRANSIENT_ATTEMPTS) {
				await pause(this, backoffMs(attempt), itemIndex);
				continue;
			}
			throw new NodeApiError(this.getNode(), { code: code ?? 'request_failed' } as JsonObject, {
				message: isTimeout(error)
					? `The export download did not answer within ${timeoutMs / 1000} seconds`
					: `The export download failed${code ? ` (${code})` : ''}`,
				itemIndex,
			});
		}
		const { statusCode } = response;
		if (statusCode >= 200 && statusCode < 300) return response;
		const body = await readJsonStream(response.body);
		if ((TRANSIENT_STATUSES as readonly number[]).includes(statusCode) && attempt < MAX_TRANSIENT_ATTEMPTS) {
			await pause(this, backoffMs(attempt), itemIndex);
			continue;
		}
		throw apiError(this, statusCode, body, itemIndex);
	}
}
