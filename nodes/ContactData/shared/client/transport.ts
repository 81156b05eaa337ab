/** Every request to the Contact Data API: authenticated, timed out, paced, retried where safe. */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { apiCredentialOf, CREDENTIAL_NAME, scrub, type ApiContext } from './apiCredential';
import {
	apiError,
	failureAfter,
	keptFailing,
	keptRateLimited,
	noAnswer,
	redirected,
	unexpectedAnswer,
} from './apiErrors';
import type { ApiRequest, ApiResponse, Call, NoUsableAnswer } from './call';
import { now, realTimeoutOf } from './clock';
import { RATE_LIMIT_WINDOW_MS, rateLimitClassOf } from './contract';
import { readJsonStream } from './jsonStream';
import { inTurn, noteCountedCall, noteRateLimited, rateWindowOf } from './pacing';
import {
	backoffMs,
	isTransientStatus,
	jittered,
	MAX_TRANSIENT_ATTEMPTS,
	RATE_LIMITED_WINDOWS,
	rateLimitedWaitMs,
} from './retries';
import { pause } from './waits';

/** An attempt that did not fail outright (a failure is thrown). */
type Attempt<T> =
	| { kind: 'ok'; response: ApiResponse<T> }
	| { kind: 'rateLimited'; waitMs: number }
	| ({ kind: 'transient' } & NoUsableAnswer);

export async function apiRequest<T = unknown>(
	this: ApiContext,
	request: ApiRequest<T>,
): Promise<ApiResponse<T>> {
	const credential = await apiCredentialOf(this, request.itemIndex);
	const { baseUrl, keyHash } = credential;
	const rateClass = rateLimitClassOf(request.method, request.path);
	const window = rateClass ? rateWindowOf(`${baseUrl}|${keyHash}|${rateClass}`) : undefined;
	const call: Call<T> = { context: this, credential, request, window };
	// Sent again where the answer allows, until a 2xx or a failure (thrown).
	try {
		for (;;) {
			const send = (sentAt: number) => sendOnce(call, sentAt);
			const attempt = await inTurn(this, window, request.itemIndex, send);
			if (attempt.kind === 'ok') return attempt.response;
			if (attempt.kind === 'rateLimited') await afterRateLimited(call, attempt.waitMs);
			else await afterTransient(call, attempt);
		}
	} catch (error) {
		throw failureAfter(call, error);
	}
}

/** After a 429: gives up past the rate windows allowed, else waits (in turn, where there is a window). */
async function afterRateLimited(call: Call, waitMs: number): Promise<void> {
	const { context, request, window } = call;
	const since = (call.rateLimitedSince ??= now());
	call.longestWait = Math.max(call.longestWait ?? 0, waitMs);
	const windowMs = Math.max(window?.windowMs || RATE_LIMIT_WINDOW_MS, call.longestWait);
	if (now() - since >= RATE_LIMITED_WINDOWS * windowMs) throw keptRateLimited(call, now() - since);
	// With a window the wait happens in turn, before the next send.
	if (!window) await pause(context, jittered(waitMs), request.itemIndex);
}

/** After a 5xx, a lost connection or a garbled body: gives up where unsafe or too often, else backs off. */
async function afterTransient(call: Call, last: NoUsableAnswer): Promise<void> {
	const { context, request } = call;
	call.lostBefore ??= last;
	const safeToRetry =
		request.safeToRetry ?? (request.method !== 'POST' || request.idempotencyKey !== undefined);
	const attempts = (call.unanswered = (call.unanswered ?? 0) + 1);
	if (!safeToRetry || attempts >= MAX_TRANSIENT_ATTEMPTS)
		throw keptFailing(call, last, safeToRetry);
	const delay = backoffMs(attempts);
	context.logger.debug(
		`Contact Data API: ${last.reason} on ${request.method} ${request.path}; retrying in ${delay} ms (attempt ${attempts + 1} of ${MAX_TRANSIENT_ATTEMPTS})`,
	);
	await pause(context, delay, request.itemIndex);
}

async function sendOnce<T>(call: Call<T>, sentAt: number): Promise<Attempt<T>> {
	const { context, credential } = call;
	const { decrypted } = credential;
	let raw: ApiResponse<unknown>;
	try {
		raw = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_NAME,
			httpOptionsOf(call),
			// A copy each time: n8n may add to the data it is given (pre-authentication).
			{ credentialsDecrypted: { ...decrypted, data: { ...decrypted.data } } },
		)) as ApiResponse<unknown>;
	} catch (error) {
		return { kind: 'transient', ...noAnswer(call, error) };
	}
	// Refused and failed calls count against the limit too, and say so in their headers.
	if (call.window && raw.statusCode !== 429) noteCountedCall(call.window, sentAt, raw.headers);
	if (raw.statusCode >= 200 && raw.statusCode < 300) return readSuccess(call, raw);
	return await readRefusal(call, raw);
}

function httpOptionsOf({ credential, request }: Call): IHttpRequestOptions {
	return {
		method: request.method,
		url: `${credential.baseUrl}${request.path}`,
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
		timeout: realTimeoutOf(credential.timeoutMs),
		...(request.stream ? { encoding: 'stream' as const } : {}),
	};
}

function readSuccess<T>(call: Call<T>, raw: ApiResponse<unknown>): Attempt<T> {
	const { request } = call;
	const { statusCode, headers } = raw;
	if (request.stream || !request.schema) return { kind: 'ok', response: raw as ApiResponse<T> };
	// n8n hands over a body that is not JSON as text: garbled on the way, worth another try.
	if (raw.body === null || typeof raw.body !== 'object')
		return { kind: 'transient', reason: 'its answer was not readable' };
	const checked = request.schema.safeParse(raw.body);
	if (!checked.success) throw unexpectedAnswer(call, statusCode, checked.error);
	return { kind: 'ok', response: { statusCode, headers, body: checked.data } };
}

/** Any other status: a 429 to wait on, a 5xx to try again, a redirect not followed, a refusal. */
async function readRefusal<T>(call: Call<T>, raw: ApiResponse<unknown>): Promise<Attempt<T>> {
	const { context, credential, request } = call;
	const { statusCode, headers } = raw;
	const body = request.stream ? await readJsonStream(raw.body as AsyncIterable<Buffer>) : raw.body;
	if (statusCode === 429) {
		const waitMs = rateLimitedWaitMs(headers);
		if (call.window) noteRateLimited(call.window, waitMs, headers);
		return { kind: 'rateLimited', waitMs };
	}
	if (isTransientStatus(statusCode))
		return { kind: 'transient', reason: `it answered ${statusCode}`, status: statusCode };
	if (statusCode >= 300 && statusCode < 400) throw redirected(call, raw);
	throw apiError(context, statusCode, scrub(body, credential.apiKey), request);
}
