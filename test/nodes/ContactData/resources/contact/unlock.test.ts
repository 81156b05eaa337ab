/**
 * Contact → Unlock: the whole input deduplicated and sent 100 ids per call within a credit
 * budget, idempotent retries, per-id errors, and every API error code on the way.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	PATHS,
	type ContactPreview,
} from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import {
	api,
	balance,
	contacts,
	hints,
	idItems,
	idsFrom,
	isUnlocked,
	KEYS,
	keyStats,
	run,
	type TestSandbox,
	unlockParameters,
} from '../../setup';

let sandbox: TestSandbox;
let pool: ContactPreview[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 20_000 });
	pool = await contacts(sandbox, 1_500);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const unlock = (parameters: Record<string, unknown> = {}) =>
	unlockParameters({ maxCredits: 10_000, ...parameters });
const asItems = idItems;
const idsOf = (count: number, from = 0) => idsFrom(pool, count, from);

it('429: waits the Retry-After the API gives (decimals) and goes on, when another client used up the window', async () => {
	// The empty key, given credits, is used by nothing else in this file: the node knows nothing of its window.
	await sandbox.admin.setBalance(KEYS.empty, 100);
	// A window of 6 s, so that even a slow machine reaches the node's call before it frees.
	await sandbox.admin.setSettings({ time_scale: 10 });
	let result;
	try {
		await Promise.all(
			// 400 answers, but counted by the rate limit.
			Array.from({ length: 60 }, () => api(sandbox, 'POST', PATHS.unlock, { ids: [] }, KEYS.empty)),
		);
		result = await run(sandbox, {
			parameters: unlock({ maxCredits: 100 }),
			inputItems: asItems(idsOf(5)),
			key: KEYS.empty,
		});
	} finally {
		await sandbox.admin.setSettings({ time_scale: 60 });
	}
	expect(result.error).toBeUndefined();
	expect(result.items.every((item) => isUnlocked(item.json))).toBe(true);
	const stats = await keyStats(sandbox, KEYS.empty);
	expect(stats.http_429).toBeGreaterThanOrEqual(1);
	expect(stats.credits_charged).toBe(5);
});

it('2,000 input items holding 1,500 unique ids: 15 calls, 1,500 credits, output in input order', async () => {
	const unique = idsOf(1_500);
	const input = [...unique, ...unique.slice(0, 500)];
	const before = await balance(sandbox);
	const result = await run(sandbox, {
		parameters: unlock({ maxCredits: 1_500 }),
		inputItems: asItems(input),
	});
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(2_000);
	result.items.forEach((item, index) => {
		expect(item.json.id).toBe(input[index]);
		expect(item.pairedItem).toEqual({ item: index });
		expect(item.json).toMatchObject({
			unlocked: true,
			level: 'basic',
			unlocked_at: expect.any(String),
		});
		expect(item.json).toHaveProperty('email');
	});
	const stats = await keyStats(sandbox);
	expect(stats.requests['POST /v1/unlock']).toBe(15);
	expect(stats.credits_charged).toBe(1_500);
	expect(before - (await balance(sandbox))).toBe(1_500);
	expect(hints(result)[0]).toMatch(
		/1500 unique contacts \(basic\): 1500 credits charged of a 1500 budget/,
	);
});

it('takes several ids per item (array or comma-separated) and repeats within one call once', async () => {
	const [a, b, c] = idsOf(3);
	const result = await run(sandbox, {
		parameters: unlock({ contactIdField: 'ids' }),
		inputItems: [{ json: { ids: [a, b] } }, { json: { ids: `${b}, ${c}, ${a}` } }],
	});
	expect(result.items.map((item) => [item.json.id, item.pairedItem])).toEqual([
		[a, { item: 0 }],
		[b, { item: 0 }],
		[b, { item: 1 }],
		[c, { item: 1 }],
		[a, { item: 1 }],
	]);
	const stats = await keyStats(sandbox);
	expect(stats.requests['POST /v1/unlock']).toBe(1);
	expect(stats.credits_charged).toBe(3);
});

describe('Max Credits budget', () => {
	it('stops before the first call when it could go over: no request, nothing charged', async () => {
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 10 }),
			inputItems: asItems(idsOf(20)),
		});
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/^Max Credits of 10 is not enough.*nothing was sent/);
		expect(result.error?.description).toMatch(/Nothing was charged/);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/unlock']).toBeUndefined();
		expect(stats.credits_charged).toBe(0);
	});

	it('counts premium at 2 credits per contact', async () => {
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 100, level: 'premium' }),
			inputItems: asItems(idsOf(60)),
		});
		expect(result.error?.message).toMatch(
			/^Max Credits of 100 is not enough for up to 120 credits/,
		);
		expect(result.error?.description).toMatch(
			/^Unlocking 60 contacts at premium level could cost up to 120 credits/,
		);
		expect((await keyStats(sandbox)).credits_charged).toBe(0);
	});

	it('without continueOnFail, a run that could go over stops before its first call, not halfway', async () => {
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 220 }),
			inputItems: asItems(idsOf(250)),
		});
		expect(result.error?.message).toMatch(
			/^Max Credits of 220 is not enough for up to 250 credits/,
		);
		expect(result.error?.description).toMatch(
			/^Unlocking 250 contacts at basic level could cost up to 250 credits/,
		);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/unlock']).toBeUndefined();
		expect(stats.credits_charged).toBe(0);
	});

	it('contacts the input shows as unlocked do not count against the budget up front', async () => {
		await run(sandbox, {
			parameters: unlock({ maxCredits: 100 }),
			inputItems: asItems(idsOf(100)),
		});
		const previews = await contacts(sandbox, 150); // the first 100 now show "unlocked": true
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 50 }),
			inputItems: previews.map((preview) => ({ json: { ...preview } as IDataObject })),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(150);
		expect((await keyStats(sandbox)).credits_charged).toBe(150);
	});

	it('continueOnFail, Unlock What Fits: the last call is cut to what fits, the contacts past the budget pass through marked', async () => {
		const ids = idsOf(250);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 220, whenMaxCreditsReached: 'whatFits' }),
			inputItems: asItems(ids),
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(250);
		expect(result.items.slice(0, 220).every((item) => isUnlocked(item.json))).toBe(true);
		for (const [offset, item] of result.items.slice(220).entries()) {
			expect(item.json).toEqual({ id: ids[220 + offset], unlock_skipped: 'budget' });
			expect(item.pairedItem).toEqual({ item: 220 + offset });
		}
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/unlock']).toBe(3);
		expect(stats.credits_charged).toBe(220);
	});

	it('the budget is spent only by what the API charged: held contacts come back free', async () => {
		await run(sandbox, {
			parameters: unlock({ maxCredits: 100 }),
			inputItems: asItems(idsOf(100)),
		});
		const again = await run(sandbox, {
			parameters: unlock({ maxCredits: 150 }),
			inputItems: asItems(idsOf(150)),
		});
		expect(again.error).toBeUndefined();
		expect(again.items).toHaveLength(150);
		expect((await keyStats(sandbox)).credits_charged).toBe(150);
	});
});

describe('already unlocked contacts', () => {
	it('are unlocked again free of charge and reported; with Skip Already Unlocked they are passed through unsent', async () => {
		await run(sandbox, { parameters: unlock(), inputItems: asItems(idsOf(5)) });
		const previews = await contacts(sandbox, 8); // the first 5 now show "unlocked": true
		expect(previews.filter((preview) => preview.unlocked)).toHaveLength(5);
		const inputItems = previews.map((preview) => ({ json: { ...preview } as IDataObject }));

		const again = await run(sandbox, { parameters: unlock(), inputItems });
		expect(again.items.every((item) => isUnlocked(item.json))).toBe(true);
		expect((await keyStats(sandbox)).credits_charged).toBe(5 + 3);
		expect(hints(again)[0]).toMatch(/8 unique contacts .* 3 credits charged/);

		await sandbox.admin.reset();
		await run(sandbox, { parameters: unlock(), inputItems: asItems(idsOf(5)) });
		const skipping = await run(sandbox, {
			parameters: unlock({ options: { skipAlreadyUnlocked: true } }),
			inputItems,
		});
		expect(skipping.items.map((item) => item.json.unlock_skipped ?? 'sent')).toEqual([
			...Array(5).fill('already_unlocked'),
			...Array(3).fill('sent'),
		]);
		expect(skipping.items.map((item) => item.pairedItem)).toEqual(
			previews.map((_, item) => ({ item })),
		);
		expect(hints(skipping)[0]).toMatch(/5 already unlocked and skipped/);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/unlock']).toBe(2);
		expect(stats.credits_charged).toBe(5 + 3);
	});
});

describe('errors', () => {
	it('a contact id that does not exist: an error item under continueOnFail, charged nothing', async () => {
		const [a, b] = idsOf(2);
		const result = await run(sandbox, {
			parameters: unlock(),
			inputItems: asItems([a, 'ct_doesnotexist', b]),
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.id).toBe(a);
		expect(result.items[1]).toMatchObject({
			json: {
				id: 'ct_doesnotexist',
				error: expect.stringMatching(/ct_doesnotexist.*\[item 1\]/),
				httpCode: '404',
			},
			pairedItem: { item: 1 },
		});
		expect(result.items[2].json.id).toBe(b);
		expect((await keyStats(sandbox)).credits_charged).toBe(2);
	});

	it('a contact id that does not exist stops the node (naming it and its item) without continueOnFail', async () => {
		const result = await run(sandbox, {
			parameters: unlock(),
			inputItems: asItems([idsOf(1)[0], 'ct_doesnotexist']),
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toMatch(/ct_doesnotexist.*\[item 1\]/);
	});

	it('an id that is not a contact id is refused before anything is sent', async () => {
		const result = await run(sandbox, {
			parameters: unlock(),
			inputItems: asItems([idsOf(1)[0], 'ls_123']),
		});
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(
			/Contact ID Field "id": "ls_123" is not a contact id.*\[item 1\]/,
		);
		expect((await sandbox.admin.stats()).requests_total).toBe(0);
	});

	it('402 on an empty balance: the API’s message with required and balance, nothing charged', async () => {
		const result = await run(sandbox, {
			parameters: unlock(),
			inputItems: asItems(idsOf(3)),
			key: KEYS.empty,
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.httpCode).toBe('402');
		expect(result.error?.description).toMatch(
			/Required 3 credits; the balance is 0\. .*This call was not charged/,
		);
		expect((await keyStats(sandbox, KEYS.empty)).credits_charged).toBe(0);
	});

	it('402 under continueOnFail: every item becomes an error item and later calls are not sent', async () => {
		const result = await run(sandbox, {
			parameters: unlock(),
			inputItems: asItems(idsOf(250)),
			key: KEYS.empty,
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(250);
		expect(result.items.every((item) => item.json.httpCode === '402')).toBe(true);
		expect((await keyStats(sandbox, KEYS.empty)).requests['POST /v1/unlock']).toBe(1);
	});

	it('403 for a starter key and 401 for a revoked key carry the API’s message', async () => {
		const starter = await run(sandbox, {
			parameters: unlock(),
			inputItems: asItems(idsOf(1)),
			key: KEYS.starter,
		});
		expect(starter.error).toMatchObject({ name: 'NodeApiError', httpCode: '403' });
		expect(starter.error?.description).toMatch(/Growth tier/);
		const revoked = await run(sandbox, {
			parameters: unlock(),
			inputItems: asItems(idsOf(1)),
			key: KEYS.revoked,
		});
		expect(revoked.error).toMatchObject({ name: 'NodeApiError', httpCode: '401' });
		expect(revoked.error?.message).toMatch(/revoked/);
	});
});

describe('retries', () => {
	it('lost answers after the API charged (drops and 5xx): retried with the idempotency key, charged once per contact', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'drop', count: 2, phase: 'after' },
			{ route: 'POST /v1/unlock', kind: 'error', status: 503, rate: 0.3, phase: 'after' },
		]);
		const ids = idsOf(600);
		const before = await balance(sandbox);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 600 }),
			inputItems: asItems([...ids, ...ids.slice(0, 100)]),
		});
		await sandbox.admin.clearFaults();
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(700);
		expect(result.items.every((item) => isUnlocked(item.json))).toBe(true);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/unlock']).toBeGreaterThan(6);
		expect(stats.credits_charged).toBe(600);
		expect(before - (await balance(sandbox))).toBe(600);
	});

	it('5xx before processing and garbled answers are retried too', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'error', status: 502, count: 1 },
			{ route: 'POST /v1/unlock', kind: 'malformed', count: 1, phase: 'after' },
		]);
		const result = await run(sandbox, { parameters: unlock(), inputItems: asItems(idsOf(10)) });
		await sandbox.admin.clearFaults();
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(10);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/unlock']).toBe(3);
		expect(stats.credits_charged).toBe(10);
	});
});
