/**
 * A call that failed, as the error the user reads: no answer (stopped, timed out, unreachable), a
 * redirect, a 2xx the node cannot read, a 429 or a 5xx that did not pass, a download that got no
 * file. Each is a failure kind (./failures) with its message in words; the API key is wiped from
 * anything that might echo it.
 */
import type { NodeApiError } from 'n8n-workflow';
import type { ZodError } from 'zod';

import type { ApiContext, ApiCredential } from './apiCredential';
import { asWritten } from './asWritten';
import { apiFailure, certainlyNotCarriedOut } from './failures';
import { errorCodeOf, isConnectionLost, isTimeout, RATE_LIMITED_WINDOWS } from './retries';
import { stopped } from './waits';

/** What a failed call's message names: the call, and the input item it was made for. */
export interface CallNamed {
	method: string;
	path: string;
	itemIndex?: number;
}

/** An attempt that got no usable answer (the call may have been carried out), in words. */
export interface NoUsableAnswer {
	/** What happened, in words: "the connection was lost", "it answered 503". */
	reason: string;
	/** The system code of a lost connection, for the description. */
	code?: string;
	/** The status the API answered (a 5xx), if it answered one. */
	status?: number;
}

/**
 * A call that got no answer: thrown when stopped, timed out or unreachable; what happened when
 * the connection was lost on the way (the caller may send it again).
 */
export function noAnswer(
	context: ApiContext,
	{ baseUrl, timeoutMs }: ApiCredential,
	call: CallNamed,
	error: unknown,
): NoUsableAnswer {
	const code = errorCodeOf(error);
	if (code === 'ERR_CANCELED') throw stopped(context, call.itemIndex);
	if (isTimeout(error)) {
		// Not retried here: an API that does not answer in this time would only be waited on again. A
		// charging call may still be replayed once with its key (the caller says so when it is).
		throw apiFailure(context.getNode(), 'lostAnswer', {
			code: 'timeout',
			message: noAnswerWithin(timeoutMs),
			description: `${call.method} ${call.path} got no answer in that time. Try again later, or raise Timeout (Seconds) in the Contact Data API credential.`,
			itemIndex: call.itemIndex,
		});
	}
	if (isConnectionLost(code)) return { reason: 'the connection was lost', code };
	// Only the code is kept: the original error holds the request, Authorization header included.
	if (code !== undefined && code in NOTHING_ANSWERS)
		throw nothingAnswers(context, baseUrl, code, call.itemIndex);
	throw apiFailure(context.getNode(), 'lostAnswer', {
		code: code ?? 'request_failed',
		message: `The Contact Data API could not be reached${code ? ` (${code})` : ''}`,
		description: `Check the Base URL in the Contact Data API credential (${baseUrl}).`,
		itemIndex: call.itemIndex,
	});
}

/** The headline of a call that got no answer in the credential's Timeout. */
export function noAnswerWithin(timeoutMs: number): string {
	return `The Contact Data API did not answer within ${timeoutMs / 1000} seconds`;
}

/** The headline of a call that found no server at the Base URL. */
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

function nothingAnswers(
	context: ApiContext,
	baseUrl: string,
	code: string,
	itemIndex: number | undefined,
): NodeApiError {
	// Not the system's code as the error's code: n8n would replace the message with its own for it.
	const message = nothingAnswersAt(baseUrl);
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
export function downloadFailed(
	context: ApiContext,
	error: unknown,
	timeoutMs: number,
	itemIndex?: number,
): NodeApiError {
	const code = errorCodeOf(error);
	const reason = code === undefined ? undefined : CONNECTION_FAILURES[code];
	return apiFailure(context.getNode(), 'lostAnswer', {
		code: 'download_failed',
		message: isTimeout(error)
			? `The export download did not answer within ${timeoutMs / 1000} seconds`
			: `The export file did not arrive${reason ? `: ${reason}` : ''}`,
		description: `The signed export URL was not read${code ? ` (${code})` : ''}. Run the export again: it gives a new URL.`,
		itemIndex,
	});
}

/** A 3xx: the API never redirects, so the call is not followed (the key stays at the Base URL). */
export function redirected(
	context: ApiContext,
	{ baseUrl, apiKey }: ApiCredential,
	call: CallNamed,
	statusCode: number,
	location: string | undefined,
): NodeApiError {
	return apiFailure(context.getNode(), 'lostAnswer', {
		message: `The Contact Data API answered ${statusCode}, a redirect`,
		description: scrub(
			`The API does not redirect, so the call was not sent on${location ? ` to ${location}` : ''}. Check the Base URL in the Contact Data API credential (${baseUrl}).`,
			apiKey,
		),
		status: statusCode,
		apiCode: 'redirected',
		itemIndex: call.itemIndex,
	});
}

/**
 * A 2xx JSON answer without a field the node needs (or with it in another form): an error that
 * names the field. Not sent again: the API has carried the call out, and may have charged for it.
 */
export function unexpectedAnswer(
	context: ApiContext,
	call: CallNamed,
	statusCode: number,
	error: ZodError,
): NodeApiError {
	const issue = error.issues[0];
	const field = issue.path.map(String).join('.') || 'its body';
	const received = 'received' in issue ? String(issue.received) : undefined;
	const headline =
		received === 'undefined'
			? `without \`${field}\``
			: `with \`${field}\` in a form the node does not read`;
	return apiFailure(context.getNode(), 'unreadableAnswer', {
		code: 'unexpected_answer',
		message: `The Contact Data API answered ${headline}`,
		description: `${call.method} ${call.path} answered ${statusCode}, but the node needs \`${field}\`${'expected' in issue ? ` (${String(issue.expected)})` : ''}: ${issue.message}. The call was not sent again, as the API may have carried it out already (a charged call may have been charged: see Credits → Get Balance).`,
		itemIndex: call.itemIndex,
	});
}

/** A call that met 429 for as long as the rate windows allow. */
export function keptRateLimited(
	context: ApiContext,
	call: CallNamed,
	waitedMs: number,
): NodeApiError {
	return apiFailure(context.getNode(), 'rateLimited', {
		message: 'The Contact Data API kept answering 429 (rate limited)',
		description: `Gave up after ${Math.round(waitedMs / 1000)} s of waiting as the API asked, ${RATE_LIMITED_WINDOWS} rate windows. Another workflow or program is using the same API key heavily.`,
		status: 429,
		apiCode: 'rate_limited',
		itemIndex: call.itemIndex,
	});
}

/**
 * A call that got no usable answer (5xx, lost connection, garbled body) and is not sent again,
 * named as what the last attempt met: a status only when the API answered one.
 */
export function keptFailing(
	context: ApiContext,
	call: CallNamed,
	last: NoUsableAnswer,
	attempts: number,
	safeToRetry: boolean,
): NodeApiError {
	const code = last.code ? ` (${last.code})` : '';
	return apiFailure(context.getNode(), 'lostAnswer', {
		message: `No usable answer from the Contact Data API: ${last.reason}`,
		description: safeToRetry
			? `${call.method} ${call.path} was tried ${attempts} times, with no usable answer${code}. Try again later.`
			: `${call.method} ${call.path} was not sent again automatically, because repeating it could act twice${code}. Check the result in the service before running it again.`,
		status: last.status,
		code: last.status ? 'unavailable' : 'no_answer',
		apiCode: last.status ? 'unavailable' : undefined,
		itemIndex: call.itemIndex,
	});
}

/**
 * How a call ended, as thrown: a refusal after an attempt whose answer was lost (429 to the end,
 * 402, nothing listening…) says nothing of that attempt, which may have been carried out.
 */
export function failureAfter(
	context: ApiContext,
	call: CallNamed,
	lost: NoUsableAnswer | undefined,
	refusal: unknown,
): unknown {
	if (lost === undefined || !certainlyNotCarriedOut(refusal)) return refusal;
	return apiFailure(context.getNode(), 'lostAnswer', {
		message: `No answer came back from the Contact Data API (${lost.reason}), and sent again: ${(refusal as Error).message}`,
		description: `${call.method} ${call.path} may have been carried out by the attempt whose answer was lost${lost.code ? ` (${lost.code})` : ''}. Check the result in the service before running it again.`,
		code: 'no_answer',
		itemIndex: call.itemIndex,
	});
}

/** `value` (a text, or a parsed body) with every copy of the API key wiped out. */
export function scrub<V>(value: V, apiKey: string): V {
	if (apiKey.length < 4 || value === undefined) return value;
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	if (!text.includes(apiKey)) return value;
	const wiped = text.split(apiKey).join('[API key]');
	return (typeof value === 'string' ? wiped : JSON.parse(wiped)) as V;
}
