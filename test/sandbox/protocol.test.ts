/** Conventions of every endpoint: keys and tiers, 404/405, malformed bodies, error shape, nothing crashes. */
import type { SavedList, SavedListsPage } from '../../nodes/ContactData/shared/client/contract';
import { KEYS } from '../harness/sandbox';
import { expectError, useSandbox, type MaybeErrorBody, type Method } from './client';

const env = useSandbox({ contacts: 5_000, rateLimits: false });
const { api } = env;

/** Every API endpoint, with a body that would be invalid once authenticated. */
const ENDPOINTS: Array<[Method, string, unknown]> = [
	['POST', '/v1/search', { filters: { nope: 1 } }],
	['POST', '/v1/unlock', { ids: [] }],
	['POST', '/v1/enrich', {}],
	['GET', '/v1/lists?limit=0', undefined],
	['POST', '/v1/lists', {}],
	['GET', '/v1/lists/ls_x', undefined],
	['DELETE', '/v1/lists/ls_x', undefined],
	['POST', '/v1/lists/ls_x/contacts', {}],
	['DELETE', '/v1/lists/ls_x/contacts', {}],
	['POST', '/v1/lists/ls_x/export', { format: 'pdf' }],
	['POST', '/v1/webhooks', {}],
	['GET', '/v1/webhooks', undefined],
	['DELETE', '/v1/webhooks/wh_x', undefined],
	['GET', '/v1/credits/balance', undefined],
	['POST', '/v1/credits/refund', {}],
];

describe('keys and tiers', () => {
	it('answers 401 for a missing, unknown, malformed or revoked key and 403 below growth, before validating', async () => {
		for (const [method, path, body] of ENDPOINTS) {
			for (const [options, status, code] of [
				[{ key: null }, 401, 'unauthorized'],
				[{ key: 'sk_live_unknown' }, 401, 'unauthorized'],
				[{ key: KEYS.revoked }, 401, 'unauthorized'],
				[{ key: null, headers: { authorization: `Basic ${KEYS.growth}` } }, 401, 'unauthorized'],
				[{ key: KEYS.starter }, 403, 'tier_required'],
			] as const) {
				const reply = await api<MaybeErrorBody>(method, path, body, options);
				expect({
					method,
					path,
					options,
					status: reply.status,
					code: reply.body?.error?.code,
				}).toEqual({ method, path, options, status, code });
				expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
			}
		}
	});

	it('accepts each growth key, each with its own state', async () => {
		await api('POST', '/v1/lists', { name: 'Mine' });
		expect((await api<SavedListsPage>('GET', '/v1/lists')).body.lists).toHaveLength(1);
		expect(
			(await api<SavedListsPage>('GET', '/v1/lists', undefined, { key: KEYS.empty })).body.lists,
		).toHaveLength(0);
	});
});

describe('routing', () => {
	it('answers 404 not_found for unknown paths', async () => {
		for (const path of [
			'/',
			'/v1',
			'/v1/contacts',
			'/v2/search',
			'/v1/lists/ls_x/members',
			'/v1/search/extra',
			'/v1/exports',
		]) {
			const reply = await api<MaybeErrorBody>('GET', path);
			expect({ path, status: reply.status, code: reply.body?.error?.code }).toEqual({
				path,
				status: 404,
				code: 'not_found',
			});
		}
	});

	it('answers 405 method_not_allowed for a known path with another method, with Allow', async () => {
		const cases: Array<[Method, string, string]> = [
			['GET', '/v1/search', 'POST'],
			['GET', '/v1/unlock', 'POST'],
			['DELETE', '/v1/enrich', 'POST'],
			['PUT', '/v1/lists', 'GET, POST'],
			['PATCH', '/v1/lists/ls_x', 'GET, DELETE'],
			['GET', '/v1/lists/ls_x/contacts', 'POST, DELETE'],
			['GET', '/v1/lists/ls_x/export', 'POST'],
			['PUT', '/v1/webhooks', 'POST, GET'],
			['GET', '/v1/webhooks/wh_x', 'DELETE'],
			['POST', '/v1/credits/balance', 'GET'],
			['GET', '/v1/credits/refund', 'POST'],
			['POST', '/v1/exports/ex_1', 'GET'],
		];
		for (const [method, path, allow] of cases) {
			const reply = await api<MaybeErrorBody>(method, path, method === 'GET' ? undefined : {});
			expect({
				method,
				path,
				status: reply.status,
				code: reply.body?.error?.code,
				allow: reply.headers.allow,
			}).toEqual({
				method,
				path,
				status: 405,
				code: 'method_not_allowed',
				allow,
			});
		}
	});
});

describe('bodies and errors', () => {
	it('answers 400 for malformed JSON and non-object bodies', async () => {
		for (const raw of ['{"filters": ', 'not json', '[1,2]', 'null', '"text"', '42']) {
			const reply = await api('POST', '/v1/search', undefined, { raw });
			expect({ raw, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				raw,
				details: { field: 'body' },
			});
		}
	});

	it('refuses bodies over 1 MB and keeps serving', async () => {
		const huge = JSON.stringify({ ids: ['ct_'.padEnd(2_000_000, 'x')] });
		const reply = await api('POST', '/v1/unlock', undefined, { raw: huge });
		expect(expectError(reply, 400, 'invalid_request').details).toEqual({ field: 'body' });
		expect((await api('GET', '/v1/credits/balance')).status).toBe(200);
	});

	it('survives garbage on every endpoint, never changing a balance or a list', async () => {
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'Keep', contact_ids: [] }))
			.body;
		const garbage: unknown[] = [
			{},
			[],
			{ ids: [null, 1, {}] },
			{ ids: 'x'.repeat(10_000) },
			{ filters: { title: [1] }, limit: 'many' },
			{ name: 7, filters: 'all', contact_ids: {} },
			{ email: ['a@b.c'], linkedin_url: 5, level: null },
			{ url: 42, events: 'job_change', list_ids: {} },
			{ contact_id: null, reason: ['bounced_email'] },
			{ format: {}, fields: [1, 2], delivery: true },
			{ __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } },
		];
		// Every endpoint that reads a body.
		const paths: Array<[Method, string]> = ENDPOINTS.filter(([, , body]) => body !== undefined).map(
			([method, path]) => [method, path.replace('ls_x', list.id)],
		);
		for (const [method, path] of paths) {
			for (const body of garbage) {
				const reply = await api<MaybeErrorBody>(method, path, body);
				expect({ method, path, body, ok: reply.status < 500 }).toEqual({
					method,
					path,
					body,
					ok: true,
				});
				if (reply.status >= 400) expect(typeof reply.body?.error?.code).toBe('string');
			}
		}
		const balance = (await api('GET', '/v1/credits/balance')).body;
		expect(balance).toMatchObject({ balance: 1_000_000, usage: [], refunds: [] });
		const lists = (await api<SavedListsPage>('GET', '/v1/lists')).body.lists;
		expect(lists.map((l) => [l.id, l.contact_count])).toEqual([[list.id, 0]]);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});
