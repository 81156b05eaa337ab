/**
 * Unlock when the API answers what the contract rules out (issue 19): an answer that leaves out a
 * requested id, a charge that is negative or more than the call's worst case, and an id asked for
 * twice by one item. Max Credits stays a hard ceiling and every input item gets its output.
 */

import type { ContactPreview } from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import {
	contacts,
	hints,
	idItems,
	idsFrom,
	isUnlocked,
	keyStats,
	run,
	type TestSandbox,
	unlockParameters,
	WHAT_FITS,
} from '../../setup';

jest.setTimeout(120_000);

let sandbox: TestSandbox;
let pool: ContactPreview[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 20_000 });
	pool = await contacts(sandbox, 400);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());
afterEach(async () => sandbox.admin.clearFaults());

const unlock = unlockParameters;
const asItems = idItems;
const idsOf = (count: number, from = 0) => idsFrom(pool, count, from);
const whatFits = WHAT_FITS;

describe('an unlock answer that leaves out a requested id', () => {
	it('once: the id is asked for again (free, as it was unlocked) and 3 items give 3 records', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'rewrite', phase: 'after', omit_entry: 1, count: 1 },
		]);
		const ids = idsOf(3);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 3 }),
			inputItems: asItems(ids),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(ids);
		expect(result.items.every((item) => isUnlocked(item.json))).toBe(true);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		const stats = await keyStats(sandbox);
		expect(stats.credits_charged).toBe(3);
		expect(stats.requests['POST /v1/unlock']).toBe(2);
	});

	it('always, continueOnFail: an error item paired with its item, naming the id and saying it may have been charged', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'rewrite', phase: 'after', omit_entry: 0 },
		]);
		const ids = idsOf(3);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 3 }),
			inputItems: asItems(ids),
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(3);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.items[0].json.error).toMatch(new RegExp(`${ids[0]}.*may have been charged`));
		expect(result.items.slice(1).map((item) => item.json.id)).toEqual(ids.slice(1));
		// The answer's charge (3) covers it: nothing more is held back, and the run stays within Max Credits.
		expect(hints(result)[0]).toMatch(
			/^Unlocked 2 unique contacts \(basic\): 3 credits charged of a 3 budget/,
		);
		expect((await keyStats(sandbox)).credits_charged).toBeLessThanOrEqual(3);
	});

	it('always, without continueOnFail: the run fails naming the id', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'rewrite', phase: 'after', omit_entry: 0 },
		]);
		const ids = idsOf(3);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 3 }),
			inputItems: asItems(ids),
		});
		expect(result.error?.message).toMatch(new RegExp(`${ids[0]}.*may have been charged`));
	});
});

describe('a charge the contract rules out never widens the budget', () => {
	it('credits_charged -800 on every answer, Unlock What Fits, Max Credits 150, 300 new contacts: at most 150 charged', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'rewrite', phase: 'after', set: { credits_charged: -800 } },
		]);
		const ids = idsOf(300);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 150, ...whatFits }),
			inputItems: asItems(ids),
			continueOnFail: true,
		});
		expect((await keyStats(sandbox)).credits_charged).toBeLessThanOrEqual(150);
		expect(result.items).toHaveLength(300);
		expect(result.items.filter((item) => item.json.unlock_skipped === 'budget')).toHaveLength(150);
		expect(hints(result)[0]).toMatch(/impossible charge/);
		expect(hints(result)[0]).not.toMatch(/-\d+ credits charged/);
	});

	it.each([[1000], ['ten'], [2.5]])(
		'credits_charged %p (not a whole number within the worst case) is an impossible charge',
		async (charge) => {
			await sandbox.admin.setFaults([
				{
					route: 'POST /v1/unlock',
					kind: 'rewrite',
					phase: 'after',
					set: { credits_charged: charge },
				},
			]);
			const ids = idsOf(20);
			const result = await run(sandbox, {
				parameters: unlock({ maxCredits: 10, ...whatFits }),
				inputItems: asItems(ids),
				continueOnFail: true,
			});
			expect((await keyStats(sandbox)).credits_charged).toBeLessThanOrEqual(10);
			expect(result.items).toHaveLength(20);
			expect(hints(result)[0]).toMatch(/impossible charge/);
		},
	);
});

describe('an id repeated inside one item', () => {
	it('[a, a, b] in one item is two contacts: 2 output items, charged 2', async () => {
		const [a, b] = idsOf(2);
		const result = await run(sandbox, {
			parameters: unlock({ contactIdField: 'ids', maxCredits: 2 }),
			inputItems: [{ json: { ids: [a, a, b] } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual([a, b]);
		expect((await keyStats(sandbox)).credits_charged).toBe(2);
	});

	it('across items each item keeps its own copy, paired with it', async () => {
		const [a, b] = idsOf(2);
		const result = await run(sandbox, {
			parameters: unlock({ contactIdField: 'ids', maxCredits: 2 }),
			inputItems: [{ json: { ids: [a, b] } }, { json: { ids: [a] } }],
		});
		expect(result.items.map((item) => [item.json.id, item.pairedItem])).toEqual([
			[a, { item: 0 }],
			[b, { item: 0 }],
			[a, { item: 1 }],
		]);
	});
});
