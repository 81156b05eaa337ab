/** A plain HTTP client for the sandbox's API (undici, no retries, no pacing): what the tests check at the service. */
import { request } from 'undici';

import { KEYS, type TestSandbox } from './sandbox';

/**
 * One answer of the API. `T` is what the caller expects the parsed body to be (a contract type, or
 * `ApiErrorBody` for a refusal); it is not checked here: the tests assert on it.
 */
export interface Reply<T = unknown> {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	/** The parsed JSON body (undefined when the body is empty or not JSON). */
	body: T;
}

export type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

export interface CallOptions {
	/** API key; null sends no Authorization header. Default: the growth key. */
	key?: string | null;
	headers?: Record<string, string>;
	/** A raw body, sent as is (malformed JSON tests). */
	raw?: string;
}

export async function call<T = unknown>(
	baseUrl: string,
	method: Method,
	path: string,
	body?: unknown,
	options: CallOptions = {},
): Promise<Reply<T>> {
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
	return { status: response.statusCode, headers: response.headers, text, body: parsed as T };
}

/** Calls one sandbox's API with a key (the growth key by default); the body is parsed JSON. */
export async function api<T>(
	sandbox: TestSandbox,
	method: 'GET' | 'POST' | 'DELETE',
	path: string,
	body?: unknown,
	key: string = KEYS.growth,
): Promise<{ status: number; body: T }> {
	const reply = await call<T>(sandbox.url, method, path, body, { key });
	return { status: reply.status, body: reply.body };
}
