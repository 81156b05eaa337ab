/** Set-up of the sandbox conformance tests: one sandbox per file and a client bound to it. */
import type {
	ApiErrorBody,
	EnrichResponse,
	SearchResponse,
	UnlockResponse,
	UnlockedContact,
} from '../../nodes/ContactData/shared/client/contract';
import { call, type CallOptions, type Method, type Reply } from '../harness/api';
import { startTestSandbox, type SandboxOptions, type TestSandbox } from '../harness/sandbox';

export { call, type CallOptions, type Method, type Reply };

export type { TestSandbox };

/**
 * The answer of POST /v1/unlock as the sandbox sends it: each contact in full. The contract's
 * UnlockResponse reads only the ids of charged contacts (all the node needs); these tests check the rest.
 */
export interface UnlockAnswer<Contacts extends UnlockResponse['contacts'] = UnlockedContact[]>
	extends UnlockResponse {
	contacts: Contacts;
}

/** A body that may be the contract's error body (a refusal) or something else: read `error?.code`. */
export type MaybeErrorBody = Partial<ApiErrorBody> | undefined;

/** The answer of POST /v1/enrich as the sandbox sends it: the contact in full. */
export interface EnrichAnswer extends EnrichResponse {
	contact: UnlockedContact;
}

/** Calls the API; `T` names the body the test expects (a contract type), `unknown` when it reads none. */
export type Api = <T = unknown>(
	method: Method,
	path: string,
	body?: unknown,
	options?: CallOptions,
) => Promise<Reply<T>>;

/** A client bound to one sandbox. */
export function clientFor(baseUrl: string): Api {
	return <T>(method: Method, path: string, body?: unknown, options?: CallOptions) =>
		call<T>(baseUrl, method, path, body, options);
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
		api: <T>(method: Method, path: string, body?: unknown, callOptions?: CallOptions) =>
			call<T>(current().url, method, path, body, callOptions),
	};
}

/** The ids of the first `count` contacts in data set order. */
export async function firstContactIds(api: Api, count: number): Promise<string[]> {
	const ids: string[] = [];
	let cursor: string | null = null;
	do {
		const page: SearchResponse = (
			await api<SearchResponse>('POST', '/v1/search', {
				filters: {},
				limit: Math.min(100, count - ids.length),
				cursor,
			})
		).body;
		ids.push(...page.results.map((r) => r.id));
		cursor = page.next_cursor;
	} while (ids.length < count && cursor);
	return ids;
}

/** Asserts the contract's error shape and returns the error object. */
export function expectError(reply: Reply, status: number, code: string): ApiErrorBody['error'] {
	// Read as the contract's error body; the assertions below are what check that it is one.
	const body = reply.body as MaybeErrorBody;
	expect({ status: reply.status, code: body?.error?.code }).toEqual({ status, code });
	expect(typeof body?.error?.message).toBe('string');
	expect(body?.error?.message.length).toBeGreaterThan(0);
	return (body as ApiErrorBody).error;
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
