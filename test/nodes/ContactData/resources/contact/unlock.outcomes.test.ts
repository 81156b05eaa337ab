/**
 * What Unlock gives each input item and says in its notice (unlock.ts): Stop Before Spending's
 * forecast at the level's price, the items What Fits passes through, Skip Already Unlocked and
 * what it reads as held, and the count of contacts not sent. In n8n's engine against a model of
 * the API on loopback, with no sandbox: fast enough for the mutation test set.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { startContactApi, type ContactApi } from '../../../../support/contactApi.cjs';
import { hints, type RunOptions, unlockParameters, WHAT_FITS } from '../../setup';
import { contactIds, runOn } from '../../shared/budget/findings';

let api: ContactApi | undefined;
afterEach(async () => {
	await api?.close();
	api = undefined;
});

/** Unlock of `items` (their json) with `parameters`; the ids each call asked for. */
async function unlock(
	parameters: IDataObject,
	items: IDataObject[],
	options: Partial<RunOptions> & { balance?: number } = {},
) {
	const { balance, ...runOptions } = options;
	api = await startContactApi({ balance });
	const result = await runOn(api, {
		parameters: unlockParameters(parameters),
		inputItems: items.map((json) => ({ json })),
		...runOptions,
	});
	return { ...result, sent: api.calls.map(({ body }) => body.ids) };
}

/** Each output item as its pairing and the fields named (a record's other fields left out). */
const outputOf = (items: INodeExecutionData[], fields: string[]) =>
	items.map(({ json, pairedItem }) => [
		pairedItem,
		Object.fromEntries(
			fields.filter((field) => field in json).map((field) => [field, json[field]]),
		),
	]);

const FREE = 'A contact already unlocked comes back free.';

describe('Stop Before Spending forecasts at the level’s price', () => {
	const premium = { maxCredits: 3, level: 'premium' };
	const message =
		'Max Credits of 3 is not enough for up to 4 credits, so nothing was sent. Raise Max Credits to 4.';
	const description =
		'Unlocking 2 contacts at premium level could cost up to 4 credits. Nothing was charged. You can also ask for fewer contacts, or set When Max Credits Is Reached to Unlock What Fits. Unlock What Fits spends up to the budget and passes the rest through.';

	it('2 new contacts at premium (2 credits each) do not fit Max Credits 3: nothing sent', async () => {
		const result = await unlock(premium, [{ id: 'ct_a' }, { id: 'ct_b' }]);
		expect(result.sent).toEqual([]);
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toBe(description);
	});

	it('with Continue On Fail each item gets the refusal, and the notice counts none as not sent', async () => {
		const result = await unlock(premium, [{ id: 'ct_a' }, { id: 'ct_b' }], {
			continueOnFail: true,
		});
		expect(outputOf(result.items, ['id', 'error', 'description'])).toEqual([
			[{ item: 0 }, { id: 'ct_a', error: message, description }],
			[{ item: 1 }, { id: 'ct_b', error: message, description }],
		]);
		expect(hints(result)).toEqual([
			`Unlocked 0 unique contacts (premium): 0 credits charged of a 3 budget. ${FREE}`,
		]);
	});
});

describe('Unlock What Fits passes the rest through, marked', () => {
	it('one id per item: the item passed through is the input item, marked', async () => {
		const result = await unlock({ maxCredits: 1, ...WHAT_FITS }, [
			{ id: 'ct_a', name: 'Ada' },
			{ id: 'ct_b', name: 'Grace' },
		]);
		expect(result.sent).toEqual([['ct_a']]);
		expect(outputOf(result.items, ['id', 'name', 'unlocked', 'unlock_skipped'])).toEqual([
			[{ item: 0 }, { id: 'ct_a', unlocked: true }],
			[{ item: 1 }, { id: 'ct_b', name: 'Grace', unlock_skipped: 'budget' }],
		]);
		expect(hints(result)).toEqual([
			`Unlocked 1 unique contact (basic): 1 credit charged of a 1 budget; 1 contact not sent (Max Credits reached). ${FREE}`,
		]);
	});

	it('several ids in one item: each id passed through is its own item, naming the id', async () => {
		const result = await unlock({ maxCredits: 1, contactIdField: 'ids', ...WHAT_FITS }, [
			{ ids: ['ct_a', 'ct_b'], name: 'Acme' },
		]);
		expect(outputOf(result.items, ['id', 'name', 'unlocked', 'unlock_skipped'])).toEqual([
			[{ item: 0 }, { id: 'ct_a', unlocked: true }],
			[{ item: 0 }, { id: 'ct_b', unlock_skipped: 'budget' }],
		]);
	});
});

describe('Skip Already Unlocked skips what the input says is held, at this level or above', () => {
	const skip = { maxCredits: 5, options: { skipAlreadyUnlocked: true } };

	it('an item marked unlocked is skipped; one marked not unlocked is sent', async () => {
		const result = await unlock(skip, [
			{ id: 'ct_a', unlocked: true, level: 'basic', name: 'Ada' },
			{ id: 'ct_b', unlocked: false },
			{ id: 'ct_c', unlocked: true, level: 'basic' },
		]);
		expect(result.sent).toEqual([['ct_b']]);
		expect(outputOf(result.items, ['id', 'name', 'unlock_skipped'])).toEqual([
			[{ item: 0 }, { id: 'ct_a', name: 'Ada', unlock_skipped: 'already_unlocked' }],
			[{ item: 1 }, { id: 'ct_b' }],
			[{ item: 2 }, { id: 'ct_c', unlock_skipped: 'already_unlocked' }],
		]);
		expect(hints(result)).toEqual([
			`Unlocked 1 unique contact (basic): 1 credit charged of a 5 budget; 2 already unlocked and skipped. ${FREE}`,
		]);
	});

	it('an item marked unlocked holds only its own id, not the other ids it lists', async () => {
		const result = await unlock({ ...skip, contactIdField: 'ids' }, [
			{ ids: ['ct_a', 'ct_b'], id: 'ct_a', unlocked: true },
		]);
		expect(result.sent).toEqual([['ct_b']]);
		expect(outputOf(result.items, ['id', 'unlock_skipped'])).toEqual([
			[{ item: 0 }, { id: 'ct_a', unlock_skipped: 'already_unlocked' }],
			[{ item: 0 }, { id: 'ct_b' }],
		]);
	});

	it('at premium, a contact held at basic is sent; one held at premium is skipped', async () => {
		const result = await unlock({ ...skip, level: 'premium' }, [
			{ id: 'ct_a', unlocked: true, level: 'basic' },
			{ id: 'ct_b', unlocked: true, level: 'premium' },
		]);
		expect(result.sent).toEqual([['ct_a']]);
		expect(hints(result)).toEqual([
			`Unlocked 1 unique contact (premium): 2 credits charged of a 5 budget; 1 already unlocked and skipped. ${FREE}`,
		]);
	});
});

it('a balance refused (402) ends the calls: the ids not sent carry the refusal, not "Max Credits reached"', async () => {
	const ids = contactIds('b', 150);
	const result = await unlock(
		{ maxCredits: 1_000 },
		ids.map((id) => ({ id })),
		{ balance: 100, continueOnFail: true },
	);
	expect(result.sent.map((sent) => sent?.length)).toEqual([100, 50]);
	const refused = result.items.filter(({ json }) => json.error !== undefined);
	expect(refused.map(({ json }) => json.id)).toEqual(ids.slice(100));
	expect(hints(result)).toEqual([
		`Unlocked 100 unique contacts (basic): 100 credits charged of a 1000 budget. ${FREE}`,
	]);
});
