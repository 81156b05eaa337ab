/** Rate limits per key over a rolling (scaled) minute: classes, headers, 429 + Retry-After, what counts. */
import { sleep } from 'n8n-workflow';

import type { ExportUrlResponse, SavedList } from '../../nodes/ContactData/shared/client/contract';
import { KEYS } from '../harness/sandbox';
import { expectError, firstContactIds, useSandbox, type Reply } from './client';

// A minute lasts 6 seconds here.
const TIME_SCALE = 10;
const WINDOW_S = 60 / TIME_SCALE;

const env = useSandbox({ contacts: 5_000, timeScale: TIME_SCALE });
const { api } = env;
let ids: string[];

beforeAll(async () => {
	ids = await firstContactIds(api, 3);
});

const SECONDS = /^\d+(\.\d{1,3})?$/;

function rate(reply: Reply) {
	return {
		limit: reply.headers['x-ratelimit-limit'],
		remaining: reply.headers['x-ratelimit-remaining'],
		reset: reply.headers['x-ratelimit-reset'],
	};
}

describe('rate limits', () => {
	it('sends the headers on every other authenticated answer, per class', async () => {
		const search = await api('POST', '/v1/search', { filters: {}, limit: 1 });
		expect(rate(search)).toEqual({
			limit: '100',
			remaining: '99',
			reset: expect.stringMatching(SECONDS),
		});
		expect(Number(search.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
		expect(Number(search.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(WINDOW_S);

		const unlock = await api('POST', '/v1/unlock', { ids: [ids[0]] });
		expect(rate(unlock)).toMatchObject({ limit: '60', remaining: '59' });
		// Unlock and enrich share one class; a 404 or a 400 is counted like any answer.
		const enrich = await api('POST', '/v1/enrich', { email: 'nobody@nowhere.example' });
		expect(enrich.status).toBe(404);
		expect(rate(enrich)).toMatchObject({ limit: '60', remaining: '58' });
		const invalid = await api('POST', '/v1/unlock', { ids: [] });
		expect(invalid.status).toBe(400);
		expect(rate(invalid)).toMatchObject({ limit: '60', remaining: '57' });

		const others = [
			await api('GET', '/v1/lists'),
			await api('GET', '/v1/credits/balance'),
			await api('GET', '/v1/webhooks'),
			await api('GET', '/v1/lists/ls_missing'),
		];
		expect(
			others.map((reply) => [
				reply.headers['x-ratelimit-limit'],
				reply.headers['x-ratelimit-remaining'],
			]),
		).toEqual([
			['600', '599'],
			['600', '598'],
			['600', '597'],
			['600', '596'],
		]);
		// Each key has its own windows.
		expect(rate(await api('GET', '/v1/lists', undefined, { key: KEYS.empty }))).toMatchObject({
			remaining: '599',
		});
	});

	it('sends none on 401, 403, exports and export downloads', async () => {
		const answers = [
			await api('GET', '/v1/lists', undefined, { key: null }),
			await api('GET', '/v1/lists', undefined, { key: KEYS.revoked }),
			await api('GET', '/v1/lists', undefined, { key: 'sk_unknown' }),
			await api('GET', '/v1/lists', undefined, { key: KEYS.starter }),
		];
		expect(answers.map((reply) => reply.status)).toEqual([401, 401, 401, 403]);
		for (const reply of answers) expect(reply.headers['x-ratelimit-limit']).toBeUndefined();

		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'L', contact_ids: ids })).body;
		for (let n = 0; n < 3; n++) {
			const inline = await api('POST', `/v1/lists/${list.id}/export`, {});
			expect(inline.status).toBe(200);
			expect(inline.headers['x-ratelimit-limit']).toBeUndefined();
		}
		const url = (
			await api<ExportUrlResponse>('POST', `/v1/lists/${list.id}/export`, { delivery: 'url' })
		).body.url;
		const download = await api('GET', url.slice(env.sandbox.url.length), undefined, { key: null });
		expect(download.status).toBe(200);
		expect(download.headers['x-ratelimit-limit']).toBeUndefined();
		// Exports did not use the "other" class.
		expect(rate(await api('GET', '/v1/lists'))).toMatchObject({ remaining: '598' });
	});

	it('answers 429 with Retry-After past the limit; 429s are not counted; slots free as calls leave the window', async () => {
		// The window stays full until a window after the first counted call.
		const fullUntil = Date.now() + WINDOW_S * 1000;
		for (let n = 0; n < 60; n++) {
			const reply = await api('POST', '/v1/unlock', { ids: [ids[n % 3]] });
			expect(reply.status).toBe(200);
		}
		const lastCounted = Date.now();
		const limited = await api('POST', '/v1/enrich', { email: 'nobody@nowhere.example' });
		const error = expectError(limited, 429, 'rate_limited');
		expect(error.message).toMatch(/rate/);
		const retryAfter = limited.headers['retry-after'] as string;
		expect(retryAfter).toMatch(SECONDS);
		expect(Number(retryAfter)).toBeGreaterThan(0);
		expect(Number(retryAfter)).toBeLessThanOrEqual(WINDOW_S);
		expect(rate(limited)).toMatchObject({ limit: '60', remaining: '0' });
		// Searches have their own class.
		expect((await api('POST', '/v1/search', { filters: {}, limit: 1 })).status).toBe(200);

		// Refused calls spread over the rest of the full window: if they counted, they would still fill it later.
		let refused = 0;
		while (Date.now() < fullUntil - 500) {
			expect((await api('POST', '/v1/unlock', { ids: [ids[0]] })).status).toBe(429);
			refused++;
			await sleep(250);
		}
		// Past Retry-After and a full window after the last call counted, the window is empty.
		await sleep(
			Math.max(Number(retryAfter) * 1000, lastCounted + WINDOW_S * 1000 - Date.now()) + 200,
		);
		const after = await api('POST', '/v1/unlock', { ids: [ids[0]] });
		expect(after.status).toBe(200);
		expect(rate(after)).toMatchObject({ remaining: '59' });
		const stats = await env.sandbox.admin.stats();
		expect(stats.keys[KEYS.growth].http_429).toBe(refused + 1);
		expect(stats.keys[KEYS.growth].requests['POST /v1/unlock']).toBe(60 + refused + 1);
	});

	it('counts idempotent replays', async () => {
		const headers = { 'Idempotency-Key': 'replayed' };
		const first = await api('POST', '/v1/unlock', { ids: [ids[0]] }, { headers });
		const replay = await api('POST', '/v1/unlock', { ids: [ids[0]] }, { headers });
		expect(replay.body).toEqual(first.body);
		expect([
			first.headers['x-ratelimit-remaining'],
			replay.headers['x-ratelimit-remaining'],
		]).toEqual(['59', '58']);
	});

	it('gives whole seconds at time scale 1, and no 429 with rate limits off', async () => {
		await env.sandbox.admin.setSettings({ time_scale: 1 });
		try {
			const reply = await api('GET', '/v1/credits/balance');
			expect(reply.headers['x-ratelimit-reset']).toBe('60');
		} finally {
			await env.sandbox.admin.setSettings({ time_scale: TIME_SCALE });
		}
		await env.sandbox.admin.setSettings({ rate_limits: false });
		try {
			let last: Reply | undefined;
			for (let n = 0; n < 70; n++) last = await api('POST', '/v1/unlock', { ids: [ids[0]] });
			expect(last!.status).toBe(200);
			expect(last!.headers['x-ratelimit-limit']).toBe('60');
		} finally {
			await env.sandbox.admin.setSettings({ rate_limits: true });
		}
	});
});
