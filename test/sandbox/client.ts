/** A plain HTTP client for the sandbox conformance tests (undici, no retries, no magic). */
import { request } from 'undici';

import { KEYS } from '../helpers/sandbox';

export interface Reply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	/** The parsed JSON body (undefined when the body is empty or not JSON). */
	body: any;
}

export type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

export interface CallOptions {
	/** API key; null sends no Authorization header. Default: the growth key. */
	key?: string | null;
	headers?: Record<string, string>;
	/** A raw body, sent as is (malformed JSON tests). */
	raw?: string;
}

export async function call(baseUrl: string, method: Method, path: string, body?: unknown, options: CallOptions = {}): Promise<Reply> {
	const key = options.key === undefined ? KEYS.growth : options.key;
	const headers: Record<string, string> = { ...options.headers };
	if (key !== null) headers.authorization = `Bearer ${key}`;
	let payload: string | undefined = options.raw;
	if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
	if (payload !== undefined) headers['content-type'] = 'application/json';
	const response = await request(`${baseUrl}${path}`, { method, headers, body: payload });
	const text = await response.body.text();
	let parsed: unknown;
	try {
		parsed = text === '' ? undefined : JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	return { status: response.statusCode, headers: response.headers, text, body: parsed };
}

/** A client bound to one sandbox. */
export function clientFor(baseUrl: string) {
	return (method: Method, path: string, body?: unknown, options?: CallOptions) => call(baseUrl, method, path, body, options);
}

/** Asserts the contract's error shape and returns the error object. */
export function expectError(reply: Reply, status: number, code: string): { code: string; message: string; details?: any } {
	expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status, code });
	expect(typeof reply.body.error.message).toBe('string');
	expect(reply.body.error.message.length).toBeGreaterThan(0);
	return reply.body.error;
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF records). */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let cell = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (quoted) {
			if (ch === '"' && text[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (ch === '"') quoted = false;
			else cell += ch;
		} else if (ch === '"') quoted = true;
		else if (ch === ',') {
			row.push(cell);
			cell = '';
		} else if (ch === '\r' && text[i + 1] === '\n') {
			row.push(cell);
			rows.push(row);
			row = [];
			cell = '';
			i++;
		} else cell += ch;
	}
	if (cell !== '' || row.length > 0) {
		row.push(cell);
		rows.push(row);
	}
	return rows;
}
