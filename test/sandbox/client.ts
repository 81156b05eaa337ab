/** A plain HTTP client for the sandbox conformance tests (undici, no retries, no magic). */
import { request } from 'undici';

import { KEYS, startTestSandbox, type SandboxOptions } from '../helpers/sandbox';

export type TestSandbox = Awaited<ReturnType<typeof startTestSandbox>>;

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

export type Api = (method: Method, path: string, body?: unknown, options?: CallOptions) => Promise<Reply>;

/** A client bound to one sandbox. */
export function clientFor(baseUrl: string): Api {
	return (method, path, body, options) => call(baseUrl, method, path, body, options);
}

/**
 * One sandbox for a test file: started before its tests, reset before each, closed after all.
 * `api` calls it with the growth key unless told otherwise.
 */
export function useSandbox(options: SandboxOptions): { readonly sandbox: TestSandbox; api: Api } {
	let sandbox: TestSandbox | undefined;
	const current = (): TestSandbox => {
		if (!sandbox) throw new Error('the sandbox starts in beforeAll');
		return sandbox;
	};
	beforeAll(async () => {
		sandbox = await startTestSandbox(options);
	});
	afterAll(() => sandbox?.close());
	beforeEach(() => current().admin.reset());
	return {
		get sandbox() {
			return current();
		},
		api: (method, path, body, callOptions) => call(current().url, method, path, body, callOptions),
	};
}

/** The ids of the first `count` contacts in data set order. */
export async function firstContactIds(api: Api, count: number): Promise<string[]> {
	const ids: string[] = [];
	let cursor: string | null = null;
	do {
		const page: any = (await api('POST', '/v1/search', { filters: {}, limit: Math.min(100, count - ids.length), cursor })).body;
		ids.push(...page.results.map((r: any) => r.id));
		cursor = page.next_cursor;
	} while (ids.length < count && cursor);
	return ids;
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
