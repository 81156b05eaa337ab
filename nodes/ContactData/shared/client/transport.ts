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
} from 'n8n-workflow';
import type { ZodError, ZodType, ZodTypeDef } from 'zod';

import { apiError, type FieldNames } from './apiErrors';
import { asWritten } from './asWritten';
import { DEFAULT_TIMEOUT_SECONDS } from './credentialDefaults';
import { apiFailure } from './failures';
import { baseUrlProblem, isAllowedSignedUrl, normalizeBaseUrl } from './baseUrl';
import {
	HEADERS,
	RATE_LIMIT_WINDOW_MS,
	TRANSIENT_STATUSES,
	rateLimitClassOf,
	type RateLimitClass,
} from './contract';
import { headerValue, numberHeader } from './headers';
import { inTurn, noteCountedCall, noteRateLimited, rateWindowOf, type RateWindow } from './pacing';
import { cancelSignalOf, pause, stopped } from './waits';

/** The credential type every Contact Data node uses. */
export const CREDENTIAL_NAME = 'contactDataApi';

export interface ContactDataCredential {
	apiKey: string;
	baseUrl: string;
	/** Seconds a call may wait for an answer. */
	timeout?: number;
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
	/** How the editor names the body's fields; an API error about a field names its parameter. */
	fieldNames?: FieldNames;
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

/** The wait before attempt `failures + 1` of a call that failed `failures` times: doubling, capped. */
function backoffMs(failures: number): number {
	return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
}

/**
 * The wait after a 429 for a call outside any rate-limit window (it has no pacing to spread the
 * wake-ups): lengthened by up to a quarter and a little more, so that callers told the same instant
 * do not all send again at once.
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

/** The rate window of a credential's key (by its hash) and a rate-limit class at its base URL. */
function rateWindowFor({ baseUrl, keyHash }: ApiCredential, rateClass: RateLimitClass | null): RateWindow | undefined {
	return rateClass ? rateWindowOf(`${baseUrl}|${keyHash}|${rateClass}`) : undefined;
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
		const error = new NodeOperationError(context.getNode(), problem, {
			description: 'Change the Base URL in the Contact Data API credential.',
		});
		throw asWritten(error, problem);
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
	const window = rateWindowFor(credential, rateLimitClassOf(request.method, request.path));
	const safeToRetry =
		request.safeToRetry ?? (request.method !== 'POST' || request.idempotencyKey !== undefined);

	let rateLimitedSince: number | undefined;
	let longestRateWait = 0;
	let transientAttempts = 0;
	for (;;) {
		const attempt = await inTurn(this, window, request.itemIndex, async (sentAt) => {
			const outcome = await sendOnce(this, credential, request);
			if (outcome.kind === 'rateLimited') noteRateLimited(window, outcome.waitMs, outcome.headers);
			// Refused and failed calls count against the limit too, and say so in their headers.
			else noteCountedCall(window, sentAt, outcome.kind === 'ok' ? outcome.response.headers : outcome.headers);
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
					throw apiFailure(this.getNode(), 'rateLimited', {
						message: 'The Contact Data API kept answering 429 (rate limited)',
						description: `Gave up after ${Math.round((Date.now() - rateLimitedSince) / 1000)} s of waiting as the API asked, ${RATE_LIMITED_WINDOWS} rate windows. Another workflow or program is using the same API key heavily.`,
						status: 429,
						apiCode: 'rate_limited',
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
					throw apiFailure(this.getNode(), 'lostAnswer', {
						message: `The Contact Data API call failed: ${attempt.reason}`,
						description: safeToRetry
							? `${request.method} ${request.path} failed ${transientAttempts} times in a row. Try again later.`
							: `${request.method} ${request.path} was not sent again automatically, because repeating it could act twice. Check the result in the service before running it again.`,
						status: 503,
						apiCode: 'unavailable',
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
		const error = apiFailure(context.getNode(), 'lostAnswer', {
			message: `The Contact Data API answered ${statusCode}, a redirect`,
			description: scrub(
				`The API does not redirect, so the call was not sent on${location ? ` to ${location}` : ''}. Check the Base URL in the Contact Data API credential (${baseUrl}).`,
				credential.apiKey,
			),
			status: statusCode,
			apiCode: 'redirected',
			itemIndex: request.itemIndex,
		});
		return { kind: 'failed', error, headers };
	}
	return {
		kind: 'failed',
		error: apiError(
			context,
			statusCode,
			scrub(body, credential.apiKey),
			request.itemIndex,
			request.pathParameter,
			request.fieldNames,
		),
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
		throw apiFailure(context.getNode(), 'lostAnswer', {
			code: 'timeout',
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
	throw apiFailure(context.getNode(), 'lostAnswer', {
		code: code ?? 'request_failed',
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
	const message = `Nothing answers at the Base URL "${baseUrl}"`;
	const error = apiFailure(context.getNode(), 'notSent', {
		code: 'unreachable',
		message,
		description: `Check the Base URL in the Contact Data API credential, and that the service is running at that address (${code}: ${NOTHING_ANSWERS[code]}).`,
		itemIndex,
	});
	return asWritten(error, message);
}

/** Why a connection found nothing, in words, by its system code. */
const CONNECTION_FAILURES: Record<string, string> = {
	...NOTHING_ANSWERS,
	ECONNRESET: 'the connection was closed before the answer came',
	EPIPE: 'the connection was closed while sending',
	ECONNABORTED: 'the connection was broken off',
	EAI_AGAIN: 'the host name could not be looked up',
};

/**
 * An export download that got no file, in words: n8n would replace a message carrying the system
 * code with its own, so the code goes in the description.
 */
function downloadFailed(context: ApiContext, error: unknown, timeoutMs: number, itemIndex?: number): NodeApiError {
	const code = errorCodeOf(error);
	const reason = code === undefined ? undefined : CONNECTION_FAILURES[code];
	return apiFailure(context.getNode(), 'lostAnswer', {
		code: 'download_failed',
		message: isTimeout(error)
			? `The export download did not answer within ${timeoutMs / 1000} seconds`
			: `The export download failed${reason ? `: ${reason}` : ''}`,
		description: `The signed export URL was not read${code ? ` (${code})` : ''}. Run the export again: it gives a new URL.`,
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
	return apiFailure(context.getNode(), 'unreadableAnswer', {
		code: 'unexpected_answer',
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
		throw apiFailure(this.getNode(), 'notSent', {
			code: 'insecure_export_url',
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
			throw downloadFailed(this, error, timeoutMs, itemIndex);
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
