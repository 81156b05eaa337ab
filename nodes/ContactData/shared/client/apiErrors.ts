/** Every way a call fails, as the `ApiFailure` the user reads. */
import type { JsonObject } from 'n8n-workflow';
import type { ZodError } from 'zod';

import { scrub, type ApiContext } from './apiCredential';
import type { ApiRequest, ApiResponse, Call, FieldNames, NoUsableAnswer } from './call';
import { apiErrorBodySchema } from './contract';
import { ApiFailure, certainlyNotCarriedOut, failureOf, type RaisedIn } from './failures';
import { firstHeaderValue } from './headers';
import {
	CONNECTIONS_LOST,
	errorCodeOf,
	isConnectionLost,
	isTimeout,
	RATE_LIMITED_WINDOWS,
} from './retries';
import { stopped } from './waits';

/** The parameter behind an API field, or the field itself ("filters.x" -> Filter "x"). */
function parameterOf(field: string, fieldNames: FieldNames | undefined): string {
	const named = fieldNames?.(field);
	if (named) return named;
	const filter = /^filters\.(.+)$/.exec(field);
	return filter ? `Filter "${filter[1]}"` : `Field "${field}"`;
}

/** What to do next, by error code: shown under the headline. */
const ERROR_ADVICE: Record<string, string> = {
	invalid_request: 'Check the parameter named above.',
	unauthorized:
		'The API key was refused: it is unknown or has been revoked. Update the API key in the Contact Data API credential.',
	insufficient_credits: 'This call was not charged. Buy credits or lower the number of contacts.',
	tier_required:
		'The API needs the Growth tier or higher. Upgrade the account that owns this API key.',
	not_found: 'Check the id. It may belong to another account or have been deleted.',
	conflict: 'This was already done once; the service refuses to do it twice.',
	too_many_ids: 'Send fewer ids per call.',
};

/** An API error answer, headlined by the parameter behind its field (or the path's id). */
export function apiError(
	context: RaisedIn,
	statusCode: number,
	body: unknown,
	{ itemIndex, pathParameter, fieldNames }: Partial<ApiRequest> = {},
): ApiFailure {
	const parsed = apiErrorBodySchema.safeParse(body);
	const error = parsed.success ? parsed.data.error : undefined;
	const details = error?.details ?? {};
	const field = typeof details.field === 'string' ? details.field : undefined;
	// The sandbox and the service start a field's message with the field: said once, by its parameter.
	const reason = field && error ? error.message.replace(`${field}: `, '') : error?.message;
	const notFound = error?.code === 'not_found';
	const parameter = field ? parameterOf(field, fieldNames) : notFound ? pathParameter : undefined;
	const headline = parameter ? `${parameter}: ${reason}` : error?.message;
	const description = [
		error ? `${statusCode} ${error.code}${field ? ` (API field: ${field})` : ''}.` : '',
		error?.code === 'insufficient_credits' && details.required !== undefined
			? `Required ${String(details.required)} credits; the balance is ${String(details.balance)}.`
			: '',
		error && ERROR_ADVICE[error.code],
		Array.isArray(details.ids) ? `Unknown ids: ${details.ids.map(String).join(', ')}` : '',
	];
	// A 4xx was not carried out; after a 5xx it is not known.
	const kind = statusCode >= 500 ? 'lostAnswer' : notFound ? 'noMatch' : 'refused';
	return new ApiFailure(context, kind, {
		body: { code: error?.code ?? null, message: error?.message ?? null, details } as JsonObject,
		message: headline ?? `The Contact Data API answered ${statusCode}`,
		description: description.filter(Boolean).join(' '),
		status: statusCode,
		apiCode: error?.code,
		itemIndex,
	});
}

/** A call that got no answer: thrown, unless the connection was lost on the way (to resend). */
export function noAnswer({ context, credential, request }: Call, error: unknown): NoUsableAnswer {
	const { baseUrl, timeoutMs } = credential;
	const { method, path, itemIndex } = request;
	const code = errorCodeOf(error);
	if (code === 'ERR_CANCELED') throw stopped(context, itemIndex);
	// Not retried after a timeout: an API that does not answer in this time would only be waited on
	// again. A charging call may still be replayed once with its key (the caller says so when it is).
	if (isTimeout(error)) {
		throw new ApiFailure(context, 'lostAnswer', {
			code: 'timeout',
			message: noAnswerWithin(timeoutMs),
			description: `${method} ${path} got no answer in that time. Try again later, or raise Timeout (Seconds) in the Contact Data API credential.`,
			itemIndex,
		});
	}
	if (isConnectionLost(code)) return { reason: 'the connection was lost', code };
	// Only the code is kept: the original error holds the request, Authorization header included.
	if (code !== undefined && code in NOTHING_ANSWERS) {
		throw new ApiFailure(context, 'notSent', {
			code: 'unreachable',
			message: nothingAnswersAt(baseUrl),
			description: `Check the Base URL in the Contact Data API credential, and that the service is running at that address (${code}: ${NOTHING_ANSWERS[code]}).`,
			itemIndex,
		});
	}
	throw new ApiFailure(context, 'lostAnswer', {
		code: code ?? 'request_failed',
		message: `The Contact Data API could not be reached${code ? ` (${code})` : ''}`,
		description: `Check the Base URL in the Contact Data API credential (${baseUrl}).`,
		itemIndex,
	});
}

export function noAnswerWithin(timeoutMs: number): string {
	return `The Contact Data API did not answer within ${timeoutMs / 1000} seconds`;
}

export function nothingAnswersAt(baseUrl: string): string {
	return `Nothing answers at the Base URL "${baseUrl}"`;
}

/** The codes of a request that found no server at the address, and what each means. */
export const NOTHING_ANSWERS: Record<string, string> = {
	ECONNREFUSED: 'the host refused the connection',
	ENOTFOUND: 'no host has that name',
	EHOSTUNREACH: 'the host cannot be reached from this network',
	ENETUNREACH: 'the host cannot be reached from this network',
};

/** An export download that got no file, in words; the system code in the description. */
export function downloadFailed(
	context: ApiContext,
	error: unknown,
	timeoutMs: number,
	itemIndex?: number,
): ApiFailure {
	const code = errorCodeOf(error);
	const reason = code === undefined ? undefined : (NOTHING_ANSWERS[code] ?? CONNECTIONS_LOST[code]);
	return new ApiFailure(context, 'lostAnswer', {
		code: 'download_failed',
		message: isTimeout(error)
			? `The export download did not answer within ${timeoutMs / 1000} seconds`
			: `The export file did not arrive${reason ? `: ${reason}` : ''}`,
		description: `The signed export URL was not read${code ? ` (${code})` : ''}. Run the export again: it gives a new URL.`,
		itemIndex,
	});
}

/** A 3xx: the API never redirects, so the call is not followed (the key stays at the Base URL). */
export function redirected(call: Call, { statusCode, headers }: ApiResponse<unknown>): ApiFailure {
	const { baseUrl, apiKey } = call.credential;
	const location = firstHeaderValue(headers, 'location');
	return new ApiFailure(call.context, 'lostAnswer', {
		message: `The Contact Data API answered ${statusCode}, a redirect`,
		description: scrub(
			`The API does not redirect, so the call was not sent on${location ? ` to ${location}` : ''}. Check the Base URL in the Contact Data API credential (${baseUrl}).`,
			apiKey,
		),
		status: statusCode,
		apiCode: 'redirected',
		itemIndex: call.request.itemIndex,
	});
}

/** A 2xx JSON answer without a field the node needs (or with it in another form). */
export function unexpectedAnswer(
	{ context, request }: Call,
	statusCode: number,
	error: ZodError,
): ApiFailure {
	const issue = error.issues[0];
	const field = issue.path.map(String).join('.') || 'its body';
	const received = 'received' in issue ? String(issue.received) : undefined;
	const headline =
		received === 'undefined'
			? `without \`${field}\``
			: `with \`${field}\` in a form the node does not read`;
	return new ApiFailure(context, 'unreadableAnswer', {
		code: 'unexpected_answer',
		message: `The Contact Data API answered ${headline}`,
		description: `${request.method} ${request.path} answered ${statusCode}, but the node needs \`${field}\`${'expected' in issue ? ` (${String(issue.expected)})` : ''}: ${issue.message}. The call was not sent again, as the API may have carried it out already (a charged call may have been charged: see Credits → Get Balance).`,
		itemIndex: request.itemIndex,
	});
}

/** A call that met 429 for as long as the rate windows allow. */
export function keptRateLimited({ context, request }: Call, waitedMs: number): ApiFailure {
	return new ApiFailure(context, 'rateLimited', {
		message: 'The Contact Data API kept answering 429 (rate limited)',
		description: `Gave up after ${Math.round(waitedMs / 1000)} s of waiting as the API asked, ${RATE_LIMITED_WINDOWS} rate windows. Another workflow or program is using the same API key heavily.`,
		status: 429,
		apiCode: 'rate_limited',
		itemIndex: request.itemIndex,
	});
}

/** A call that got no usable answer and is not sent again, named by what the last attempt met. */
export function keptFailing(call: Call, last: NoUsableAnswer, safeToRetry: boolean): ApiFailure {
	const { method, path, itemIndex } = call.request;
	const code = last.code ? ` (${last.code})` : '';
	return new ApiFailure(call.context, 'lostAnswer', {
		message: `No usable answer from the Contact Data API: ${last.reason}`,
		description: safeToRetry
			? `${method} ${path} was tried ${call.unanswered} times, with no usable answer${code}. Try again later.`
			: `${method} ${path} was not sent again automatically, because repeating it could act twice${code}. Check the result in the service before running it again.`,
		status: last.status,
		code: last.status ? 'unavailable' : 'no_answer',
		apiCode: last.status ? 'unavailable' : undefined,
		itemIndex,
	});
}

/** How a call ended: a refusal after a lost answer says nothing of the lost attempt's effect. */
export function failureAfter(
	{ context, request, lostBefore: lost }: Call,
	refusal: unknown,
): unknown {
	if (lost === undefined || !certainlyNotCarriedOut(refusal)) return refusal;
	return new ApiFailure(context, 'lostAnswer', {
		message: `No answer came back from the Contact Data API (${lost.reason}), and sent again: ${failureOf(refusal)?.headline}`,
		description: `${request.method} ${request.path} may have been carried out by the attempt whose answer was lost${lost.code ? ` (${lost.code})` : ''}. Check the result in the service before running it again.`,
		code: 'no_answer',
		itemIndex: request.itemIndex,
	});
}
