/**
 * HTTP plumbing of the sandbox: API errors, JSON bodies with a size limit, validation that names
 * the offending field, and JSON answers.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ZodIssue, ZodType, ZodTypeDef } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../nodes/ContactData/shared/client/contract';

/** Bodies above this size are refused unread. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Bodies nesting deeper than this are refused before parsing: code that walks a value recursively would overflow. */
const MAX_JSON_DEPTH = 64;

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: ErrorCode,
		message: string,
		readonly details?: Record<string, unknown>,
	) {
		super(message);
	}
}

export function apiError(
	code: ErrorCode,
	message: string,
	details?: Record<string, unknown>,
): ApiError {
	return new ApiError(ERROR_CODES[code], code, message, details);
}

export function invalidRequest(field: string, message: string): ApiError {
	return apiError('invalid_request', `${field}: ${message}`, { field });
}

export function notFound(message: string, details?: Record<string, unknown>): ApiError {
	return apiError('not_found', message, details);
}

/** The field an issue is about: its path without array positions (`filters.seniority`, `ids`). */
function fieldOf(issue: ZodIssue, prefix: string): string {
	const segments = issue.path.filter((segment) => typeof segment === 'string') as string[];
	if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) segments.push(issue.keys[0]);
	return [prefix, ...segments].filter((segment) => segment.length > 0).join('.') || 'body';
}

/** Parses a value with a schema, or throws 400 `invalid_request` naming the first bad field. */
export function parseWith<Output, Input>(
	schema: ZodType<Output, ZodTypeDef, Input>,
	value: unknown,
	prefix = '',
): Output {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	const field = fieldOf(issue, prefix);
	const message =
		issue.code === 'unrecognized_keys' ? `unknown field "${issue.keys[0]}"` : issue.message;
	throw invalidRequest(field, message);
}

/** Reads the request body as text, refusing more than MAX_BODY_BYTES. */
export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const declared = Number(req.headers['content-length'] ?? 0);
		if (declared > MAX_BODY_BYTES) {
			reject(invalidRequest('body', `must not exceed ${MAX_BODY_BYTES} bytes`));
			return;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		let failed = false;
		req.on('data', (chunk: Buffer) => {
			if (failed) return;
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				failed = true;
				reject(invalidRequest('body', `must not exceed ${MAX_BODY_BYTES} bytes`));
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => {
			if (!failed) resolve(Buffer.concat(chunks).toString('utf8'));
		});
		req.on('error', (error) => {
			if (!failed) reject(error);
		});
	});
}

/** Whether JSON text nests arrays and objects deeper than `max` (one pass; strings skipped). */
function nestsDeeperThan(text: string, max: number): boolean {
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (inString) {
			if (char === '\\') i++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '{' || char === '[') {
			if (++depth > max) return true;
		} else if (char === '}' || char === ']') depth--;
	}
	return false;
}

/** The JSON body of a request; an empty body reads as `{}`. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
	const text = await readBody(req);
	if (text.trim() === '') return {};
	if (nestsDeeperThan(text, MAX_JSON_DEPTH))
		throw invalidRequest('body', `must not nest deeper than ${MAX_JSON_DEPTH} levels`);
	try {
		return JSON.parse(text);
	} catch {
		throw invalidRequest('body', 'is not valid JSON');
	}
}

/** A JSON object body (anything else is 400). */
export function asObject(body: unknown): Record<string, unknown> {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		throw invalidRequest('body', 'must be a JSON object');
	}
	return body as Record<string, unknown>;
}

export interface Answer {
	status: number;
	/** A JSON value, or undefined for no body (204). */
	body?: unknown;
	headers?: Record<string, string>;
}

export function errorAnswer(error: ApiError, headers?: Record<string, string>): Answer {
	const body: { error: Record<string, unknown> } = {
		error: { code: error.code, message: error.message },
	};
	if (error.details) body.error.details = error.details;
	return { status: error.status, body, headers };
}

export function sendText(
	res: ServerResponse,
	status: number,
	text: string,
	headers: Record<string, string> = {},
	contentType = 'application/json; charset=utf-8',
): void {
	if (res.headersSent || res.destroyed) return;
	const payload = Buffer.from(text, 'utf8');
	res.writeHead(status, {
		...headers,
		'content-type': contentType,
		'content-length': String(payload.length),
	});
	res.end(payload);
}

export function sendAnswer(res: ServerResponse, answer: Answer): void {
	if (res.headersSent || res.destroyed) return;
	if (answer.body === undefined) {
		res.writeHead(answer.status, answer.headers ?? {});
		res.end();
		return;
	}
	sendText(res, answer.status, JSON.stringify(answer.body), answer.headers);
}

/** Whether a socket address is a loopback address. */
export function isLoopback(address: string | undefined): boolean {
	if (!address) return false;
	return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** 400 when a header that must come once (`Idempotency-Key`) is repeated: Node would join the values. */
export function refuseRepeatedHeader(
	req: IncomingMessage,
	name: string,
	displayName: string,
): void {
	if ((req.headersDistinct[name]?.length ?? 0) > 1)
		throw invalidRequest(displayName, 'must be sent once');
}

/**
 * Answers a request the HTTP parser refused (malformed, headers too large) with the contract's
 * JSON error instead of Node's plain-text default, then closes the connection.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
	if (error.code === 'ECONNRESET' || !socket.writable) {
		socket.destroy();
		return;
	}
	const status =
		error.code === 'HPE_HEADER_OVERFLOW'
			? 431
			: error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
				? 408
				: 400;
	const body = JSON.stringify({
		error: {
			code: 'invalid_request',
			message: `malformed HTTP request: ${STATUS_CODES[status]}`,
			details: { reason: error.code ?? 'parse_error' },
		},
	});
	socket.end(
		`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
			`content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
	);
}
