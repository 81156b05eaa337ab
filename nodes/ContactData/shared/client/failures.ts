/**
 * The kinds of failure of an API call, built in this one place: policy code (the credit budget,
 * the charging operations) branches on the kind, never on `httpCode`, which holds only a real HTTP
 * status. The error itself stays a NodeApiError with the message users have always seen.
 */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

/** What happened to a call, as far as what it did at the service is concerned. */
export type FailureKind =
	/** Sent, and no usable answer came back (lost connection, timeout, 5xx): it may have been carried out. */
	| 'lostAnswer'
	/** The API kept answering 429: not carried out. */
	| 'rateLimited'
	/** The API answered with an error (4xx) and its code: not carried out. */
	| 'refused'
	/** The API knows no such thing (404 `not_found`, or a per-id `not_found` entry): not carried out. */
	| 'noMatch'
	/** Answered 2xx, but not as the contract says: carried out, and what it did (or charged) is unknown. */
	| 'unreadableAnswer'
	/** An id the answer should have mirrored but left out: it may have been carried out. */
	| 'notAnswered'
	/** Never reached the service (nothing answers, a redirect, an address refused): not carried out. */
	| 'notSent';

export interface Failure {
	kind: FailureKind;
	/** The API's error code, when it answered one (`insufficient_credits`, `not_found`…). */
	apiCode?: string;
}

const failures = new WeakMap<Error, Failure>();

export interface FailureDetails {
	message: string;
	description?: string;
	/** The HTTP status the API answered, if it answered one. */
	status?: number;
	apiCode?: string;
	itemIndex?: number;
	/** What the error keeps of the answer (the API's error body); by default `{ code }`. */
	body?: JsonObject;
	/** The code n8n sees (for its own wording of some codes); by default the API's code. */
	code?: string;
}

/** A failed call as a NodeApiError of a kind; `httpCode` is the real status or null. */
export function apiFailure(node: INode, kind: FailureKind, details: FailureDetails): NodeApiError {
	const { message, description, status, apiCode, itemIndex } = details;
	const body = details.body ?? ({ code: details.code ?? apiCode ?? null } as JsonObject);
	const error = new NodeApiError(node, body, {
		message,
		description,
		httpCode: status === undefined ? undefined : String(status),
		itemIndex,
	});
	// NodeApiError takes a `code` in the body for a status; only a real one is kept.
	if (status === undefined) error.httpCode = null;
	failures.set(error, { kind, apiCode });
	return error;
}

/** The kind of a failure built here; undefined for any other error (a bug, Stop, bad input). */
export function failureOf(error: unknown): Failure | undefined {
	return error instanceof Error ? failures.get(error) : undefined;
}

/** Whether a failed call certainly did nothing at the service (so it charged nothing). */
export function certainlyNotCarriedOut(error: unknown): boolean {
	const kind = failureOf(error)?.kind;
	return kind === 'refused' || kind === 'noMatch' || kind === 'rateLimited' || kind === 'notSent';
}

/** Whether the failure is the API refusing with this code. */
export function isRefusal(error: unknown, apiCode: string): boolean {
	return failureOf(error)?.apiCode === apiCode;
}

/** An id an answer reported as unknown (a per-id `not_found` entry, the API's 404 for it): nothing was charged. */
export function entryNotFound(
	node: INode,
	id: string,
	entryError: { code?: string; message?: string },
	itemIndex: number,
): NodeApiError {
	return apiFailure(node, 'noMatch', {
		body: { id, ...entryError } as JsonObject,
		message: `${entryError.message ?? 'Contact not found'} (contact ${id})`,
		description: `${entryError.code ?? 'not_found'}: no contact has this ID, so it was not charged.`,
		status: entryError.code === 'not_found' ? 404 : undefined,
		apiCode: entryError.code,
		itemIndex,
	});
}
