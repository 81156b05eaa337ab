/** Admin routes under /_sandbox/: reset, balance, settings, stats, routing; loopback only. */
import type {
	Balance,
	SavedList,
	SavedListsPage,
	SearchResponse,
	WebhooksPage,
} from '../../nodes/ContactData/shared/client/contract';
import { isLoopback } from '../../sandbox/http.cjs';
import { KEYS, type SandboxSettingsBody } from '../harness/sandbox';
import { expectError, useSandbox } from './client';

const env = useSandbox({ contacts: 5_000, seed: 9 });
const { api } = env;

const admin = <T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
	api<T>(method, `/_sandbox/${path}`, body, { key: null });

describe('/_sandbox/', () => {
	it('reset brings every account back to its start, undoing events; the data set stays', async () => {
		const first = (await api<SearchResponse>('POST', '/v1/search', { filters: {}, limit: 1 })).body
			.results[0];
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'L', contact_ids: [first.id] }))
			.body;
		await api('POST', '/v1/webhooks', { url: 'https://example.com/h', events: ['job_change'] });
		await api('POST', '/v1/unlock', { ids: [first.id] }, { headers: { 'Idempotency-Key': 'k' } });
		await api('POST', '/v1/credits/refund', { contact_id: first.id, reason: 'wrong_title' });
		await env.sandbox.admin.setBalance(KEYS.empty, 77);
		await env.sandbox.admin.setFaults([{ route: 'GET /v1/lists', kind: 'error' }]);
		await env.sandbox.admin.emitEvents({ type: 'job_change', list_id: list.id });
		await env.sandbox.admin.setSettings({ clock_offset_s: 100 });
		expect(
			(await api<SearchResponse>('POST', '/v1/search', { filters: {}, limit: 1 })).body.results[0]
				.company,
		).not.toEqual(first.company);

		expect((await admin('POST', 'reset')).body).toEqual({ ok: true });
		expect((await api<SavedListsPage>('GET', '/v1/lists')).body.lists).toEqual([]);
		expect((await api<WebhooksPage>('GET', '/v1/webhooks')).body.webhooks).toEqual([]);
		expect((await api('GET', '/v1/credits/balance')).body).toEqual({
			balance: 1_000_000,
			tier: 'growth',
			usage: [],
			refunds: [],
		});
		expect(
			(await api<Balance>('GET', '/v1/credits/balance', undefined, { key: KEYS.empty })).body
				.balance,
		).toBe(0);
		expect(
			(await api<SearchResponse>('POST', '/v1/search', { filters: {}, limit: 1 })).body.results[0],
		).toEqual(first);
		// The idempotency record is gone: another body with the same key is new, not a conflict.
		expect(
			(
				await api(
					'POST',
					'/v1/unlock',
					{ ids: [first.id], level: 'premium' },
					{ headers: { 'Idempotency-Key': 'k' } },
				)
			).status,
		).toBe(200);
		expect(await env.sandbox.admin.deliveries()).toEqual([]);
		expect((await env.sandbox.admin.settings()).clock_offset_s).toBe(0);
		const stats = await env.sandbox.admin.stats();
		expect(stats.requests_total).toBe(6);
	});

	it('sets a balance; unknown keys are 404 and bad bodies 400', async () => {
		expect((await admin('POST', 'balance', { key: KEYS.growth, balance: 50 })).body).toEqual({
			key: KEYS.growth,
			balance: 50,
		});
		expect((await api<Balance>('GET', '/v1/credits/balance')).body.balance).toBe(50);
		expectError(await admin('POST', 'balance', { key: 'sk_other', balance: 5 }), 404, 'not_found');
		expectError(
			await admin('POST', 'balance', { key: KEYS.growth, balance: -1 }),
			400,
			'invalid_request',
		);
		expectError(await admin('POST', 'balance', { key: KEYS.growth }), 400, 'invalid_request');
		await env.sandbox.admin.reset();
	});

	it('reads and changes settings', async () => {
		const settings = (await admin('GET', 'settings')).body;
		expect(settings).toEqual({
			time_scale: 60,
			rate_limits: true,
			webhook_retry_delays_ms: [5_000, 10_000, 15_000, 30_000],
			clock_offset_s: 0,
			future_api: false,
			contacts: 5_000,
			seed: 9,
		});
		const changed = await admin('POST', 'settings', {
			time_scale: 2,
			webhook_retry_delays_ms: [10],
		});
		expect(changed.body).toMatchObject({
			time_scale: 2,
			rate_limits: true,
			webhook_retry_delays_ms: [10],
		});
		expect((await api('GET', '/v1/lists')).headers['x-ratelimit-reset']).toBe('30');
		// Rate limits off: nothing is counted, so the limit is never reached.
		expect(
			(await admin<Required<SandboxSettingsBody>>('POST', 'settings', { rate_limits: false })).body
				.rate_limits,
		).toBe(false);
		const unlimited = await api('GET', '/v1/lists');
		expect([
			unlimited.headers['x-ratelimit-limit'],
			unlimited.headers['x-ratelimit-remaining'],
		]).toEqual(['600', '600']);
		for (const body of [
			{ time_scale: 0 },
			{ rate_limits: 'no' },
			{ unknown: 1 },
			{ webhook_retry_delays_ms: [-5] },
		]) {
			expect({ body, status: (await admin('POST', 'settings', body)).status }).toEqual({
				body,
				status: 400,
			});
		}
		await admin('POST', 'settings', {
			time_scale: 60,
			rate_limits: true,
			webhook_retry_delays_ms: [5_000, 10_000, 15_000, 30_000],
		});
	});

	it('counts requests per key and route in stats', async () => {
		await env.sandbox.admin.reset();
		await api('POST', '/v1/search', { limit: 1 });
		await api('GET', '/v1/lists/ls_a');
		await api('GET', '/v1/lists/ls_b');
		await api('GET', '/v1/lists', undefined, { key: KEYS.empty });
		await api('GET', '/v1/lists', undefined, { key: null });
		const ids = (await api<SearchResponse>('POST', '/v1/search', { limit: 2 })).body.results.map(
			(r) => r.id,
		);
		const beforeUnlock = Date.now();
		await api('POST', '/v1/unlock', { ids, level: 'premium' });
		const stats = await env.sandbox.admin.stats();
		expect(stats.requests_total).toBe(7);
		// When each route was first and last called (the benches' span of the calls, e.g. of unlock).
		const spans = stats.keys[KEYS.growth].request_spans;
		expect(Object.keys(spans).sort()).toEqual([
			'GET /v1/lists/:id',
			'POST /v1/search',
			'POST /v1/unlock',
		]);
		expect(Date.parse(spans['POST /v1/unlock'].first_at)).toBeGreaterThanOrEqual(beforeUnlock);
		expect(spans['POST /v1/unlock'].last_at).toBe(spans['POST /v1/unlock'].first_at);
		expect(Date.parse(spans['POST /v1/search'].last_at)).toBeGreaterThanOrEqual(
			Date.parse(spans['POST /v1/search'].first_at),
		);
		expect(stats.keys[KEYS.growth]).toEqual({
			requests: { 'POST /v1/search': 2, 'GET /v1/lists/:id': 2, 'POST /v1/unlock': 1 },
			request_spans: spans,
			http_429: 0,
			idempotent_replays: 0,
			credits_charged: 4,
			balance: 1_000_000 - 4,
		});
		expect(stats.keys[KEYS.empty].requests).toEqual({ 'GET /v1/lists': 1 });
		expect(Object.keys(stats.keys).sort()).toEqual([KEYS.empty, KEYS.growth, KEYS.starter].sort());
	});

	it('answers 404 for unknown admin routes and 405 for other methods', async () => {
		expectError(await admin('GET', 'nothing'), 404, 'not_found');
		expectError(await admin('GET', 'reset'), 405, 'method_not_allowed');
		expectError(await admin('PUT' as 'GET', 'faults'), 405, 'method_not_allowed');
		expectError(
			await admin('POST', 'events', { type: 'promotion', list_id: 'ls_x' }),
			400,
			'invalid_request',
		);
	});

	it('answers loopback callers only', () => {
		expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
		expect(
			['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', undefined].some(isLoopback),
		).toBe(false);
	});
});
