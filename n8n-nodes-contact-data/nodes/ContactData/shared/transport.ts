/**
 * The one place requests to the Contact Data API are made: authentication (through n8n's
 * `httpRequestWithAuthentication`), the https rule, pacing by the rate-limit headers, retries and
 * the mapping of API errors to `NodeApiError`.
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
import type { ZodType, ZodTypeDef } from 'zod';

import { apiError } from './apiErrors';
import { baseUrlRefusedMessage, isAllowedBaseUrl, normalizeBaseUrl } from './baseUrl';
import { HEADERS, TRANSIENT_STATUSES, rateLimitClassOf, type RateLimitClass } from './contract';

/** The credential type every Contact Data node uses. */
export const CREDENTIAL_NAME = 'contactDataApi';

export interface ContactDataCredential {
	apiKey: string;
	baseUrl: string;
}

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
	/** Checks (and types) a 2xx JSON body; a body that does not fit counts as a transient failure. */
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

/** 429 answers are not charged or processed, so any call may wait and go again this often. */
const MAX_RATE_LIMITED_ATTEMPTS = 10;
/** Attempts in all for a call that may be repeated after a 5xx, a lost connection or a garbled body. */
const MAX_TRANSIENT_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;
/** Used when a 429 carries no usable Retry-After. */
const FALLBACK_RETRY_AFTER_MS = 1_000;

/** The wait before attempt `failures + 1` of a call that failed `failures` times: doubling, capped. */
function backoffMs(failures: number): number {
	return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
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
// process. Keyed by a hash of the key, so the key itself is never kept here.
// ---------------------------------------------------------------------------------------------

interface RateWindow {
	/** Calls left in the window as the last answer told; null when unknown (send). */
	remaining: number | null;
	/** When (ms since epoch) a slot frees if `remaining` is 0. */
	resetAt: number;
	/** Calls of one window go one at a time, so every call sees the latest headers. */
	tail: Promise<void>;
}

const rateWindows = new Map<string, RateWindow>();

function rateWindowKey({ baseUrl, keyHash }: ApiCredential, rateClass: RateLimitClass): string {
	return `${baseUrl}|${keyHash}|${rateClass}`;
}

async function inTurn<R>(window: RateWindow | undefined, send: () => Promise<R>): Promise<R> {
	if (!window) return await send();
	const before = window.tail;
	let release = () => {};
	window.tail = new Promise<void>((resolve) => (release = resolve));
	await before;
	try {
		if (window.remaining !== null && window.remaining <= 0) {
			const wait = window.resetAt - Date.now();
			if (wait > 0) await sleep(wait);
			window.remaining = null;
		}
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

function noteRateHeaders(window: RateWindow | undefined, headers: ApiResponse<unknown>['headers']) {
	if (!window) return;
	const remaining = numberHeader(headers, HEADERS.rateLimitRemaining);
	const reset = numberHeader(headers, HEADERS.rateLimitReset);
	if (remaining === undefined) return;
	window.remaining = remaining;
	window.resetAt = Date.now() + (reset ?? 0) * 1000;
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
	if (!isAllowedBaseUrl(baseUrl)) {
		throw new NodeOperationError(context.getNode(), baseUrlRefusedMessage(baseUrl), {
			description: 'Change the Base URL in the Contact Data API credential.',
		});
	}
	const details = context.getNode().credentials?.[CREDENTIAL_NAME];
	return {
		baseUrl: normalizeBaseUrl(baseUrl),
		keyHash: createHash('sha256')
			.update(String(data.apiKey ?? ''))
			.digest('hex')
			.slice(0, 16),
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
	| { kind: 'rateLimited'; waitMs: number }
	| { kind: 'transient'; reason: string }
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
	const rateClass = rateLimitClassOf(request.method, request.path);
	let window: RateWindow | undefined;
	if (rateClass) {
		const key = rateWindowKey(credential, rateClass);
		window = rateWindows.get(key);
		if (!window) {
			window = { remaining: null, resetAt: 0, tail: Promise.resolve() };
			rateWindows.set(key, window);
		}
	}
	const safeToRetry =
		request.safeToRetry ?? (request.method !== 'POST' || request.idempotencyKey !== undefined);

	let rateLimitedAttempts = 0;
	let transientAttempts = 0;
	for (;;) {
		const attempt = await inTurn(window, async () => {
			const outcome = await sendOnce(this, credential, request);
			// Refused calls count against the limit too, and say so in their headers.
			if (outcome.kind === 'ok') noteRateHeaders(window, outcome.response.headers);
			if (outcome.kind === 'failed') noteRateHeaders(window, outcome.headers);
			if (outcome.kind === 'rateLimited' && window) {
				window.remaining = 0;
				window.resetAt = Date.now() + outcome.waitMs;
			}
			return outcome;
		});
		switch (attempt.kind) {
			case 'ok':
				return attempt.response;
			case 'failed':
				throw attempt.error;
			case 'rateLimited':
				rateLimitedAttempts++;
				if (rateLimitedAttempts >= MAX_RATE_LIMITED_ATTEMPTS) {
					throw new NodeApiError(this.getNode(), { code: 'rate_limited' } as JsonObject, {
						message: withItem('The Contact Data API kept answering 429 (rate limited)', request.itemIndex),
						description: `Gave up after ${rateLimitedAttempts} attempts, each after the wait the API asked for. Another workflow may be using the same API key heavily.`,
						httpCode: '429',
						itemIndex: request.itemIndex,
					});
				}
				// With a window the wait happens in turn, before the next send.
				if (!window) await sleep(attempt.waitMs);
				break;
			case 'transient': {
				transientAttempts++;
				if (!safeToRetry || transientAttempts >= MAX_TRANSIENT_ATTEMPTS) {
					throw new NodeApiError(this.getNode(), { code: 'unavailable' } as JsonObject, {
						message: withItem(`The Contact Data API call failed: ${attempt.reason}`, request.itemIndex),
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
				await sleep(delay);
				break;
			}
		}
	}
}

async function sendOnce<T>(
	context: ApiContext,
	{ baseUrl, decrypted }: ApiCredential,
	request: ApiRequest<T>,
): Promise<Attempt<T>> {
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
		const code = errorCodeOf(error);
		if (code === 'ERR_CANCELED') {
			throw new NodeOperationError(context.getNode(), 'The execution was cancelled', {
				itemIndex: request.itemIndex,
			});
		}
		if (code !== undefined && CONNECTION_ERROR_CODES.has(code)) {
			return { kind: 'transient', reason: `the connection was lost (${code})` };
		}
		// Only the code is kept: the original error holds the request, Authorization header included.
		throw new NodeApiError(context.getNode(), { code: code ?? 'request_failed' } as JsonObject, {
			message: withItem(
				`The Contact Data API could not be reached${code ? ` (${code})` : ''}`,
				request.itemIndex,
			),
			description: `Check the Base URL in the Contact Data API credential (${baseUrl}).`,
			itemIndex: request.itemIndex,
		});
	}

	const { statusCode, headers } = raw;
	if (statusCode >= 200 && statusCode < 300) {
		if (request.stream || !request.schema) {
			return { kind: 'ok', response: raw as unknown as ApiResponse<T> };
		}
		const checked = request.schema.safeParse(raw.body === '' ? undefined : raw.body);
		if (!checked.success) {
			return { kind: 'transient', reason: `the answer to ${request.method} ${request.path} was not readable` };
		}
		return { kind: 'ok', response: { statusCode, headers, body: checked.data } };
	}

	const body = request.stream ? await readJsonStream(raw.body as AsyncIterable<Buffer>) : raw.body;
	if (statusCode === 429) {
		const seconds =
			numberHeader(headers, HEADERS.retryAfter) ?? numberHeader(headers, HEADERS.rateLimitReset);
		return { kind: 'rateLimited', waitMs: seconds !== undefined ? seconds * 1000 : FALLBACK_RETRY_AFTER_MS };
	}
	if ((TRANSIENT_STATUSES as readonly number[]).includes(statusCode)) {
		return { kind: 'transient', reason: `the API answered ${statusCode}` };
	}
	if (statusCode >= 300 && statusCode < 400) {
		const location = headerValue(headers, 'location');
		const error = new NodeApiError(context.getNode(), { code: 'redirected' } as JsonObject, {
			message: withItem(`The Contact Data API answered ${statusCode}, a redirect`, request.itemIndex),
			description: `The API does not redirect, so the call was not sent on${location ? ` to ${location}` : ''}. Check the Base URL in the Contact Data API credential (${baseUrl}).`,
			httpCode: String(statusCode),
			itemIndex: request.itemIndex,
		});
		return { kind: 'failed', error, headers };
	}
	return { kind: 'failed', error: apiError(context, statusCode, body, request.itemIndex, request.pathParameter), headers };
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

function withItem(message: string, itemIndex: number | undefined): string {
	return itemIndex === undefined ? message : `${message} [item ${itemIndex}]`;
}

// ---------------------------------------------------------------------------------------------
// Signed export URLs
// ---------------------------------------------------------------------------------------------

/**
 * Opens a signed export URL as a stream. The URL carries its own signature, so it is fetched with
 * n8n's plain `httpRequest`, without the Authorization header: the key is not sent along.
 */
export async function openSignedUrl(
	this: ApiContext,
	url: string,
	itemIndex?: number,
): Promise<ApiResponse<AsyncIterable<Buffer>>> {
	for (let attempt = 1; ; attempt++) {
		let response: ApiResponse<AsyncIterable<Buffer>>;
		try {
			response = (await this.helpers.httpRequest({
				method: 'GET',
				url,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			})) as ApiResponse<AsyncIterable<Buffer>>;
		} catch (error) {
			const code = errorCodeOf(error);
			if (code !== undefined && CONNECTION_ERROR_CODES.has(code) && attempt < MAX_TRANSIENT_ATTEMPTS) {
				await sleep(backoffMs(attempt));
				continue;
			}
			throw new NodeApiError(this.getNode(), { code: code ?? 'request_failed' } as JsonObject, {
				message: withItem(`The export download failed${code ? ` (${code})` : ''}`, itemIndex),
				itemIndex,
			});
		}
		const { statusCode } = response;
		if (statusCode >= 200 && statusCode < 300) return response;
		const body = await readJsonStream(response.body);
		if ((TRANSIENT_STATUSES as readonly number[]).includes(statusCode) && attempt < MAX_TRANSIENT_ATTEMPTS) {
			await sleep(backoffMs(attempt));
			continue;
		}
		throw apiError(this, statusCode, body, itemIndex);
	}
}
