/** The package's errors; policy code branches on their kind, never on `httpCode` (real or null). */
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

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
	/** Never reached the service (a refused Base URL, nothing answers, a redirect): not carried out. */
	| 'notSent';

/** An n8n context an error is raised in (in an execution, it has input items). */
export interface RaisingContext {
	getNode(): INode;
	getInputData?(): unknown[];
}

export type RaisedIn = INode | RaisingContext;

export interface FailureDetails {
	message: string;
	description?: string;
	itemIndex?: number;
	/** The HTTP status the API answered, if it answered one. */
	status?: number;
	apiCode?: string;
	/** What the error keeps of the answer; by default `{ code }`. */
	body?: JsonObject;
	/** The code kept for a failure the API did not answer; by default the API's code. */
	code?: string;
}

const nodeOf = (raisedIn: RaisedIn) => ('getNode' in raisedIn ? raisedIn.getNode() : raisedIn);

/** " [item N]" after a message raised for an item of several, as n8n's own nodes name it. */
function inWords(raisedIn: RaisedIn, message: string, itemIndex: number | undefined): string {
	const items = 'getInputData' in raisedIn ? (raisedIn.getInputData?.().length ?? 0) : 0;
	return itemIndex !== undefined && items > 1 ? `${message} [item ${itemIndex}]` : message;
}

// n8n's NodeError replaces a message that merely contains a system error code (EPERM, ENOENT,
// ECONNREFUSED…, anywhere: EPERM in "deepermind.example") with its own text, and takes a `code`
// in the body for a status: the constructors below set theirs as given. The name stays n8n's,
// which n8n tells its errors by.

/** Besides its message: `kind` when the error stopped a call before sending (a refused Base URL). */
type Raised = Pick<FailureDetails, 'description' | 'itemIndex'> & { kind?: FailureKind };

/** An operation's error, built as n8n's nodes build theirs (`{ description, itemIndex }`). */
export class OperationError extends NodeOperationError {
	readonly kind?: FailureKind;
	readonly headline: string;

	constructor(
		raisedIn: RaisedIn,
		error: string | Error,
		{ description, itemIndex, kind }: Raised = {},
	) {
		super(nodeOf(raisedIn), error, { description, itemIndex });
		this.headline = typeof error === 'string' ? error : error.message;
		this.message = inWords(raisedIn, this.headline, itemIndex);
		this.name = 'NodeOperationError';
		this.kind = kind;
	}
}

/** A failed call: a NodeApiError of a kind; `httpCode` is the real status or null. */
export class ApiFailure extends NodeApiError {
	readonly kind: FailureKind;
	readonly apiCode?: string;
	/** The message before it names the item: what a failure that builds on this one quotes. */
	readonly headline: string;
	readonly details: FailureDetails;

	constructor(raisedIn: RaisedIn, kind: FailureKind, details: FailureDetails) {
		const { message, description, status, apiCode, itemIndex } = details;
		const httpCode = status === undefined ? undefined : String(status);
		const body = details.body ?? ({ code: details.code ?? apiCode ?? null } as JsonObject);
		super(nodeOf(raisedIn), body, { message, description, httpCode, itemIndex });
		this.details = details;
		this.message = inWords(raisedIn, message, itemIndex);
		this.httpCode = httpCode ?? null;
		this.name = 'NodeApiError';
		this.kind = kind;
		this.apiCode = apiCode;
		this.headline = message;
	}
}

/**
 * The same failure said of another input item, with a sentence added after its headline, or first
 * in its description (`below`): a call's failure is each of its items' error, and the error that
 * ends a run says what the run charged.
 */
export function restated(
	raisedIn: RaisedIn,
	error: NodeApiError | NodeOperationError,
	itemIndex: number | undefined,
	addition?: string,
	below = false,
): NodeApiError | NodeOperationError {
	const said = (headline: string) => (addition && !below ? `${headline}. ${addition}` : headline);
	const describe = (description?: string | null) =>
		addition && below ? [`${addition}.`, description].filter(Boolean).join(' ') : description;
	if (error instanceof ApiFailure)
		return new ApiFailure(raisedIn, error.kind, {
			...error.details,
			message: said(error.headline),
			description: describe(error.details.description) ?? undefined,
			itemIndex,
		});
	if (!(error instanceof OperationError)) return error;
	const { description, kind } = error;
	return new OperationError(raisedIn, said(error.headline), {
		description: describe(description) ?? undefined,
		itemIndex,
		kind,
	});
}

export type Failure = Pick<ApiFailure, 'kind' | 'apiCode' | 'headline'>;

/** The failure of a call; undefined for any other error (a bug, Stop, bad input). */
export function failureOf(error: unknown): Failure | undefined {
	if (error instanceof ApiFailure) return error;
	return error instanceof OperationError && error.kind ? (error as Failure) : undefined;
}

/** Whether a failed call certainly did nothing at the service (so it charged nothing). */
export function certainlyNotCarriedOut(error: unknown): boolean {
	const kind = failureOf(error)?.kind;
	return kind === 'refused' || kind === 'noMatch' || kind === 'rateLimited' || kind === 'notSent';
}

export function isRefusal(error: unknown, apiCode: string): boolean {
	return failureOf(error)?.apiCode === apiCode;
}

/** An id an answer reported as unknown (a per-id `not_found` entry, the API's 404 for it): nothing was charged. */
export function entryNotFound(
	raisedIn: RaisedIn,
	id: string,
	entryError: { code?: string; message?: string },
	itemIndex: number,
): ApiFailure {
	return new ApiFailure(raisedIn, 'noMatch', {
		body: { id, ...entryError } as JsonObject,
		message: `${entryError.message ?? 'Contact not found'} (contact ${id})`,
		description: `${entryError.code ?? 'not_found'}: no contact has this ID, so it was not charged.`,
		status: entryError.code === 'not_found' ? 404 : undefined,
		apiCode: entryError.code,
		itemIndex,
	});
}
