/** Fault injection: error, drop, slow and malformed rules; count, rate and route matching; phases. */
import { request } from 'undici';

import type {
	Balance,
	SearchResponse,
	UnlockResponse,
} from '../../nodes/ContactData/shared/client/contract';
import { optionsFromEnvironment } from '../../sandbox/cli.cjs';
import { KEYS, startTestSandbox, type FaultRule } from '../harness/sandbox';
import { withEnv } from '../support/env.cjs';
import { clientFor, expectError, firstContactIds, useSandbox } from './client';

const env = useSandbox({ contacts: 5_000, rateLimits: false });
const { api } = env;
let ids: string[];

/** The body of GET /_sandbox/faults. */
interface FaultRules {
	rules: FaultRule[];
}

beforeAll(async () => {
	ids = await firstContactIds(api, 5);
});

async function balance(): Promise<number> {
	return (await api<Balance>('GET', '/v1/credits/balance')).body.balance;
}

/** Whether a request is dropped (the socket closes with no answer). */
async function isDropped(
	path: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<boolean> {
	try {
		await request(`${env.sandbox.url}${path}`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${KEYS.growth}`,
				'content-type': 'application/json',
				...headers,
			},
			body: JSON.stringify(body),
		});
		return false;
	} catch {
		return true;
	}
}

describe('fault rules', () => {
	it('error before: the next n matching requests fail with the status, nothing is processed', async () => {
		await env.sandbox.admin.setFaults([{ route: 'POST /v1/unlock', kind: 'error', count: 2 }]);
		expectError(await api('POST', '/v1/unlock', { ids: [ids[0]] }), 503, 'unavailable');
		expectError(await api('POST', '/v1/unlock', { ids: [ids[0]] }), 503, 'unavailable');
		expect(await balance()).toBe(1_000_000);
		// Other routes are untouched; the rule is used up.
		expect((await api('POST', '/v1/search', { limit: 1 })).status).toBe(200);
		expect((await api('POST', '/v1/unlock', { ids: [ids[0]] })).status).toBe(200);
		await env.sandbox.admin.setFaults([
			{ route: 'GET /v1/credits/balance', kind: 'error', status: 500, count: 1 },
			{ route: 'GET /v1/credits/balance', kind: 'error', status: 502, count: 1 },
		]);
		expectError(await api('GET', '/v1/credits/balance'), 500, 'internal');
		expectError(await api('GET', '/v1/credits/balance'), 502, 'unavailable');
		expect((await api('GET', '/v1/credits/balance')).status).toBe(200);
	});

	it('error after: the request is processed and charged, then the answer is lost; a keyed retry replays', async () => {
		await env.sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'error', phase: 'after', count: 1 },
		]);
		const headers = { 'Idempotency-Key': 'after-fault' };
		expectError(
			await api('POST', '/v1/unlock', { ids: ids.slice(0, 2) }, { headers }),
			503,
			'unavailable',
		);
		expect(await balance()).toBe(1_000_000 - 2);
		const retry = await api<UnlockResponse>(
			'POST',
			'/v1/unlock',
			{ ids: ids.slice(0, 2) },
			{ headers },
		);
		expect(retry.status).toBe(200);
		expect(retry.body.credits_charged).toBe(2);
		expect(await balance()).toBe(1_000_000 - 2);
	});

	it('drop: before loses the request unprocessed; after processes it and loses the answer', async () => {
		await env.sandbox.admin.setFaults([{ route: 'POST /v1/unlock', kind: 'drop', count: 1 }]);
		expect(await isDropped('/v1/unlock', { ids: [ids[0]] })).toBe(true);
		expect(await balance()).toBe(1_000_000);
		await env.sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'drop', phase: 'after', count: 1 },
		]);
		expect(await isDropped('/v1/unlock', { ids: [ids[0]] }, { 'Idempotency-Key': 'dropped' })).toBe(
			true,
		);
		expect(await balance()).toBe(1_000_000 - 1);
		const retry = await api<UnlockResponse>(
			'POST',
			'/v1/unlock',
			{ ids: [ids[0]] },
			{ headers: { 'Idempotency-Key': 'dropped' } },
		);
		expect(retry.body.credits_charged).toBe(1);
		expect(await balance()).toBe(1_000_000 - 1);
	});

	it('slow delays the answer; malformed answers broken JSON', async () => {
		await env.sandbox.admin.setFaults([
			{ route: 'GET /v1/webhooks', kind: 'slow', delay_ms: 300, count: 1 },
		]);
		const started = Date.now();
		const slow = await api('GET', '/v1/webhooks');
		expect(slow.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);

		await env.sandbox.admin.setFaults([{ route: 'POST /v1/search', kind: 'malformed', count: 1 }]);
		const broken = await api('POST', '/v1/search', { limit: 1 });
		expect(broken.status).toBe(200);
		expect(broken.headers['content-type']).toMatch(/^application\/json/);
		expect(() => JSON.parse(broken.text)).toThrow();

		await env.sandbox.admin.setFaults([
			{ route: 'POST /v1/search', kind: 'malformed', phase: 'after', count: 1 },
		]);
		const half = await api('POST', '/v1/search', { limit: 1 });
		expect(half.text.startsWith('{"results":[{"id":"')).toBe(true);
		expect(() => JSON.parse(half.text)).toThrow();
		expect(
			(await api<SearchResponse>('POST', '/v1/search', { limit: 1 })).body.results,
		).toHaveLength(1);
	});

	it('matches path prefixes and "*", and applies a seeded share with rate', async () => {
		await env.sandbox.admin.setFaults([{ route: 'GET /v1/lists*', kind: 'error', count: 2 }]);
		expect((await api('GET', '/v1/lists/ls_any')).status).toBe(503);
		expect((await api('POST', '/v1/lists', { name: 'x' })).status).toBe(201);
		expect((await api('GET', '/v1/lists')).status).toBe(503);
		expect((await api('GET', '/v1/lists')).status).toBe(200);

		await env.sandbox.admin.setFaults([{ route: '*', kind: 'error', count: 1 }]);
		expect((await api('GET', '/v1/credits/balance')).status).toBe(503);

		await env.sandbox.admin.setFaults([{ route: 'GET /v1/webhooks', kind: 'error', rate: 0.5 }]);
		const statuses: number[] = [];
		for (let n = 0; n < 40; n++) statuses.push((await api('GET', '/v1/webhooks')).status);
		const failed = statuses.filter((s) => s === 503).length;
		expect(failed).toBeGreaterThan(5);
		expect(failed).toBeLessThan(35);
		// The same seed gives the same pattern after the rules are set again.
		await env.sandbox.admin.setFaults([{ route: 'GET /v1/webhooks', kind: 'error', rate: 0.5 }]);
		const again: number[] = [];
		for (let n = 0; n < 40; n++) again.push((await api('GET', '/v1/webhooks')).status);
		expect(again).toEqual(statuses);

		await env.sandbox.admin.clearFaults();
		expect((await api('GET', '/v1/webhooks')).status).toBe(200);
	});

	it('lists and validates rules, counts faulted requests in stats, and reads rules at start', async () => {
		await env.sandbox.admin.setFaults([{ route: 'POST /v1/unlock', kind: 'error', count: 1 }]);
		const listed = await api<FaultRules>('GET', '/_sandbox/faults', undefined, { key: null });
		expect(listed.body.rules).toEqual([{ route: 'POST /v1/unlock', kind: 'error', count: 1 }]);
		await api('POST', '/v1/unlock', { ids: [ids[0]] });
		expect(
			(await api<FaultRules>('GET', '/_sandbox/faults', undefined, { key: null })).body.rules,
		).toEqual([]);
		const stats = await env.sandbox.admin.stats();
		expect(stats.keys[KEYS.growth].requests['POST /v1/unlock']).toBe(1);
		expect(stats.requests_total).toBeGreaterThanOrEqual(1);

		for (const rules of [
			[{ route: 'POST /v1/unlock', kind: 'explode' }],
			[{ route: 'unlock', kind: 'error' }],
			[{ route: '*', kind: 'error', status: 404 }],
			[{ route: '*', kind: 'error', rate: 2 }],
			[{ route: '*', kind: 'error', phase: 'during' }],
			[{ route: '*', kind: 'error', extra: true }],
		]) {
			const reply = await api('POST', '/_sandbox/faults', { rules }, { key: null });
			expect({ rules, status: reply.status }).toEqual({ rules, status: 400 });
		}

		const variables = {
			SANDBOX_FAULTS: JSON.stringify([{ route: 'POST /v1/search', kind: 'error', count: 1 }]),
			SANDBOX_PORT: '0',
			SANDBOX_CONTACTS: '2000',
			SANDBOX_TIME_SCALE: '30',
			SANDBOX_RATE_LIMITS: 'off',
		};
		await withEnv(variables, async () => {
			const options = optionsFromEnvironment();
			expect(options).toEqual({
				port: 0,
				contacts: 2000,
				seed: 42,
				timeScale: 30,
				rateLimits: false,
				faults: [{ route: 'POST /v1/search', kind: 'error', count: 1 }],
			});
			const started = await startTestSandbox(options);
			try {
				const client = clientFor(started.url);
				expect((await client('POST', '/v1/search', {})).status).toBe(503);
				expect((await client('POST', '/v1/search', {})).status).toBe(200);
			} finally {
				await started.close();
			}
			await withEnv({ SANDBOX_CONTACTS: 'many' }, () =>
				expect(() => optionsFromEnvironment()).toThrow(/SANDBOX_CONTACTS/),
			);
		});
	});
});
