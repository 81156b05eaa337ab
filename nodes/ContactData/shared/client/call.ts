/**
 * One call to the Contact Data API as the client sees it: what is asked, what comes back, and what the
 * call meets on the way. Types only: transport.ts sends a call, apiErrors.ts words how it failed.
 */
import type { IDataObject } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import type { ApiContext, ApiCredential } from './apiCredential';
import type { ResponseHeaders } from './headers';
import type { RateWindow } from './pacing';

/** How the editor names a body's field (`undefined`: the API's field is named as it is). */
export type FieldNames = (field: string) => string | undefined;

export interface ApiRequest<T = unknown> {
	method: 'GET' | 'POST' | 'DELETE';
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	/** The API answers a replay of this key with the first answer, charging nothing more. */
	idempotencyKey?: string;
	/** Whether a resend after a 5xx or a lost connection is harmless (not a keyless POST). */
	safeToRetry?: boolean;
	itemIndex?: number;
	/** The parameter the path's id comes from ("Saved List"), named when the API does not know it. */
	pathParameter?: string;
	fieldNames?: FieldNames;
	/** Checks a 2xx JSON body for the fields the node needs; the rest passes through. */
	schema?: ZodType<T, ZodTypeDef, unknown>;
	stream?: boolean;
}

export interface ApiResponse<T> {
	statusCode: number;
	headers: ResponseHeaders;
	body: T;
}

/** An attempt that got no usable answer (it may have been carried out): "it answered 503". */
export interface NoUsableAnswer {
	reason: string;
	/** The system code of a lost connection. */
	code?: string;
	status?: number;
}

/** One call as it goes: what it is, and what it has met so far. */
export interface Call<T = unknown> {
	context: ApiContext;
	credential: ApiCredential;
	request: ApiRequest<T>;
	window: RateWindow | undefined;
	rateLimitedSince?: number;
	longestWait?: number;
	/** Attempts that got no usable answer (a 5xx, a lost connection, a garbled body). */
	unanswered?: number;
	/** The first attempt that got no usable answer: it may have been carried out. */
	lostBefore?: NoUsableAnswer;
}
