/**
 * The sandbox under hostile input: no request stalls its event loop, no admin value crashes it,
 * admin routes refuse cross-site requests, export URLs ignore the Host header, and malformed
 * requests (HTTP parser errors, deep bodies, a repeated Idempotency-Key) get JSON 4xx answers.
 */
import { request } from 'undici';
import type {
	Balance,
	ExportUrlResponse,
	SavedList,
	SearchResponse,
} from '../../nodes/ContactData/shared/client/contract';
import { KEYS } from '../harness/sandbox';
import { rawExchange, withStall } from '../support/loopStall.cjs';
import { expectError, firstContactIds, useSandbox } from './client';

const env = useSandbox({ contacts: 20_000, rateLimits: false });
const { api } = env;

/** A generous bound on the longest event-loop stall a request may cause (today's worst was 7 s). */
const STALL_BOUND_MS = 1_000;

const admin = (
	method: 'GET' | 'POST',
	path: string,
	body?: unknown,
	headers: Record<string, string> = {},
) => api(method, `/_sandbox/${path}`, body, { key: null, headers });

/** Status, content type and parsed body of a raw HTTP answer. */
function parseRawAnswer(answer: string): {
	status: number;
	contentType: string | undefined;
	body: unknown;
} {
	const [head, ...rest] = answer.split('\r\n\r\n');
	const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
	const contentType = /^content-type:\s*(.+)$/im.exec(head)?.[1];
	let body: unknown;
	try {
		body = JSON.parse(rest.join('\r\n\r\n'));
	} catch {
		body = undefined;
	}
	return { status, contentType, body };
}

async function balance(): Promise<number> {
	return (await api<Balance>('GET', '/v1/credits/balance')).body.balance;
}

describe('no request stalls the event loop', () => {
	it('refuses a 92 kB keywords value at once (400 filters.keywords)', async () => {
		const words = Array.from({ length: 15_000 }, (_, n) => `w${n.toString(36)}x`).join(' ');
		const keywords = words.padEnd(92_000, ' z').slice(0, 92_000);
		const { reply, stallMs } = await withStall(() =>
			api('POST', '/v1/search', { filters: { keywords } }),
		);
		expect(expectError(reply, 400, 'invalid_request').details).toEqual({
			field: 'filters.keywords',
		});
		expect(stallMs).toBeLessThan(STALL_BOUND_MS);
	});

	it('refuses 20,000 title values at once (400 filters.title), in searches and saved lists', async () => {
		const title = Array.from({ length: 20_000 }, (_, n) => `title${n}`);
		const { reply, stallMs } = await withStall(() =>
			api('POST', '/v1/search', { filters: { title } }),
		);
		expect(expectError(reply, 400, 'invalid_request').details).toEqual({ field: 'filters.title' });
		expect(stallMs).toBeLessThan(STALL_BOUND_MS);
		const list = await api('POST', '/v1/lists', { name: 'L', filters: { title } });
		expect(expectError(list, 400, 'invalid_request').details).toEqual({ field: 'filters.title' });
		const country = await api('POST', '/v1/search', {
			filters: { country: Array.from({ length: 20_000 }, () => 'US') },
		});
		expect(expectError(country, 400, 'invalid_request').details).toEqual({
			field: 'filters.country',
		});
	});

	it('refuses a title value longer than 200 characters (400 filters.title)', async () => {
		const reply = await api('POST', '/v1/search', {
			filters: { title: ['vp ' + 'x'.repeat(300)] },
		});
		expect(expectError(reply, 400, 'invalid_request').details).toEqual({ field: 'filters.title' });
	});

	it('answers the largest accepted filters quickly', async () => {
		const sample = (
			await api<SearchResponse>('POST', '/v1/search', { filters: {}, limit: 100 })
		).body.results.map((r) => r.title);
		const title = Array.from({ length: 1_000 }, (_, n) =>
			`${sample[n % sample.length]} ${n % 7 === 0 ? 'of' : ''}`.trim(),
		);
		const keywords = Array.from({ length: 32 }, (_, n) => `k${n}`.padEnd(30, 'q')).join(' ');
		const { reply, stallMs } = await withStall(() =>
			api('POST', '/v1/search', { filters: { title, keywords: keywords.slice(0, 1_000) } }),
		);
		expect(reply.status).toBe(200);
		expect(stallMs).toBeLessThan(STALL_BOUND_MS);
		const titlesOnly = await withStall(() =>
			api<SearchResponse>('POST', '/v1/search', { filters: { title } }),
		);
		expect(titlesOnly.reply.body.total).toBeGreaterThan(0);
		expect(titlesOnly.stallMs).toBeLessThan(STALL_BOUND_MS);
	});
});

describe('admin values', () => {
	it('refuses out-of-range settings and balances (400 naming the field) and keeps serving', async () => {
		const cases: Array<[string, Record<string, unknown>, string]> = [
			['settings', { clock_offset_s: 1e300 }, 'clock_offset_s'],
			['settings', { clock_offset_s: -1e300 }, 'clock_offset_s'],
			['settings', { time_scale: 1e-300 }, 'time_scale'],
			['balance', { key: KEYS.growth, balance: 1e300 }, 'balance'],
		];
		for (const [route, body, field] of cases) {
			const reply = await admin('POST', route, body);
			expect({ body, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				body,
				details: { field },
			});
		}
		expect((await env.sandbox.admin.settings()).clock_offset_s).toBe(0);
		const [id] = await firstContactIds(api, 1);
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'L', contact_ids: [id] })).body;
		expect((await api('POST', '/v1/unlock', { ids: [id] })).status).toBe(200);
		expect((await api('POST', `/v1/lists/${list.id}/export`, { delivery: 'url' })).status).toBe(
			202,
		);
		expect(
			(await env.sandbox.admin.emitEvents({ type: 'job_change', list_id: list.id })).events,
		).toHaveLength(1);
		// The largest accepted offset still gives valid times.
		await env.sandbox.admin.setSettings({ clock_offset_s: 10 * 365 * 86_400 });
		expect((await api('POST', `/v1/lists/${list.id}/export`, { delivery: 'url' })).status).toBe(
			202,
		);
	});

	it('refuses cross-site requests: a body that is not JSON, a foreign Origin or Host', async () => {
		const body = JSON.stringify({ key: KEYS.growth, balance: 5 });
		const send = (headers: Record<string, string>) =>
			request(`${env.sandbox.url}/_sandbox/balance`, { method: 'POST', headers, body }).then(
				async (r) => ({
					status: r.statusCode,
					body: JSON.parse(await r.body.text()),
				}),
			);
		const refused: Array<[Record<string, string>, number]> = [
			[{ 'content-type': 'text/plain' }, 415],
			[{ 'content-type': 'application/x-www-form-urlencoded' }, 415],
			[{}, 415],
			[{ 'content-type': 'application/json', origin: 'https://evil.example' }, 403],
			[{ 'content-type': 'application/json', origin: 'http://localhost:5678' }, 403],
			[{ 'content-type': 'application/json', origin: 'null' }, 403],
			[{ 'content-type': 'application/json', host: 'evil.example' }, 403],
		];
		for (const [headers, status] of refused) {
			const reply = await send(headers);
			expect({ headers, status: reply.status, code: reply.body.error?.code }).toEqual({
				headers,
				status,
				code: 'invalid_request',
			});
		}
		expect(await balance()).toBe(1_000_000);
		// A cross-site POST with no body at all is refused too.
		const reset = await request(`${env.sandbox.url}/_sandbox/reset`, {
			method: 'POST',
			headers: { origin: 'https://evil.example' },
		});
		expect(reset.statusCode).toBe(403);
		await reset.body.text();
		// The sandbox's own origin, and callers that send none (curl, tests), are served.
		expect(
			(await send({ 'content-type': 'application/json; charset=utf-8', origin: env.sandbox.url }))
				.status,
		).toBe(200);
		expect(await balance()).toBe(5);
		expect((await admin('GET', 'stats')).status).toBe(200);
		expect((await admin('POST', 'reset')).status).toBe(200);
	});
});

describe('addresses and malformed requests', () => {
	it('builds export URLs from its own address, not the Host header', async () => {
		const [id] = await firstContactIds(api, 1);
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'L', contact_ids: [id] })).body;
		const reply = await api<ExportUrlResponse>(
			'POST',
			`/v1/lists/${list.id}/export`,
			{ delivery: 'url' },
			{ headers: { host: 'evil.example:80' } },
		);
		expect(reply.status).toBe(202);
		expect(reply.body.url.startsWith(`${env.sandbox.url}/v1/exports/`)).toBe(true);
	});

	it('answers HTTP parser errors with JSON', async () => {
		const garbage = parseRawAnswer(
			await rawExchange(env.sandbox.port, 'GARBAGE / HTTP/1.1\r\n\r\n'),
		);
		expect(garbage).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
		expect(garbage.contentType).toMatch(/^application\/json/);
		const bigHeader = parseRawAnswer(
			await rawExchange(
				env.sandbox.port,
				`GET /v1/lists HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
			),
		);
		expect(bigHeader).toMatchObject({ status: 431, body: { error: { code: 'invalid_request' } } });
		expect(bigHeader.contentType).toMatch(/^application\/json/);
		expect((await api('GET', '/v1/lists')).status).toBe(200);
	});

	it('answers a 100,000-deep body with 400 naming the body, on every route', async () => {
		const [id] = await firstContactIds(api, 1);
		const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
		const cases: Array<[string, string, Record<string, string>]> = [
			['/v1/unlock', `{"ids":["${id}"],"x":${deep}}`, { 'idempotency-key': 'deep-1' }],
			['/v1/search', `{"filters":{},"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, {}],
			['/_sandbox/faults', `{"rules":[],"x":${deep}}`, {}],
		];
		for (const [path, raw, headers] of cases) {
			const reply = await api('POST', path, undefined, {
				raw,
				headers,
				key: path.startsWith('/_') ? null : undefined,
			});
			expect({ path, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				path,
				details: { field: 'body' },
			});
		}
		expect(await balance()).toBe(1_000_000);
	});

	it('refuses a repeated Idempotency-Key header (400) and charges nothing', async () => {
		const [id] = await firstContactIds(api, 1);
		const response = await request(`${env.sandbox.url}/v1/unlock`, {
			method: 'POST',
			headers: [
				'authorization',
				`Bearer ${KEYS.growth}`,
				'content-type',
				'application/json',
				'idempotency-key',
				'a',
				'idempotency-key',
				'b',
			],
			body: JSON.stringify({ ids: [id] }),
		});
		const body = JSON.parse(await response.body.text());
		expect({ status: response.statusCode, error: body.error }).toMatchObject({
			status: 400,
			error: { code: 'invalid_request', details: { field: 'Idempotency-Key' } },
		});
		expect(await balance()).toBe(1_000_000);
	});
});
