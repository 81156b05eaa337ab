/**
 * Issue 37's findings (measured on 2026-11-28) on the canvas, in n8n's engine against a model of the
 * API on loopback. Each states what the reshaped charging loop does; on the charging loop of
 * `ad1acdf` each fails for the reason the finding gives.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	refusal,
	startContactApi,
	type ContactApi,
	type Respond,
} from '../../../../support/contactApi.cjs';
import { enrichParameters, hints, idItems, unlockParameters, WHAT_FITS } from '../../setup';
import { chargesStated, contactIds, runOn, textOf } from './findings';

let api: ContactApi | undefined;
afterEach(async () => {
	await api?.close();
	api = undefined;
});

const emailItems = (emails: string[]) => emails.map((email) => ({ json: { email } }));
const errorsOf = (items: INodeExecutionData[]) =>
	items.filter((item) => item.json.error !== undefined);
const retryOnFail = { maxTries: 2, waitBetweenTries: 1 };

describe('finding 1: a run that stops within a call says what it charged', () => {
	it('finding 1: Unlock [ct_a, ct_unknown] stopped by a not_found entry states 1 credit charged', async () => {
		api = await startContactApi({ unknown: ['ct_unknown'] });
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(['ct_a', 'ct_unknown']),
		});
		expect(api.debited()).toBe(1);
		expect(result.error).toBeDefined();
		expect(chargesStated(textOf(result.error))).toEqual([1]);
	});

	it('finding 1: Enrich [found, no match] stopped by the no-match states 1 credit charged', async () => {
		api = await startContactApi({ unknown: ['nobody@acme.example'] });
		const result = await runOn(api, {
			parameters: enrichParameters({ maxCredits: 10 }),
			inputItems: emailItems(['ada@acme.example', 'nobody@acme.example']),
		});
		expect(api.debited()).toBe(1);
		expect(result.error).toBeDefined();
		expect(chargesStated(textOf(result.error))).toEqual([1]);
	});
});

it('finding 3: with Continue On Fail, each error item of a refused call names its own item', async () => {
	api = await startContactApi({ respond: () => refusal(400, 'invalid_request', 'Bad ids') });
	const result = await runOn(api, {
		parameters: unlockParameters({ maxCredits: 10 }),
		inputItems: idItems(['ct_a', 'ct_b', 'ct_c']),
		continueOnFail: true,
	});
	expect(api.calls).toHaveLength(1);
	const named = errorsOf(result.items).map(({ json, pairedItem }) => [
		/\[item (\d+)\]$/.exec(String(json.error))?.[1],
		pairedItem,
	]);
	expect(named).toEqual([
		['0', { item: 0 }],
		['1', { item: 1 }],
		['2', { item: 2 }],
	]);
});

it('finding 4: an id left out of an answer and not asked again is not said to be asked twice', async () => {
	// The answer leaves out ct_c and reports a charge the contract rules out: its worst case stays
	// held, so Max Credits 3 has no room to ask for ct_c again.
	const leaveOutCtC: Respond = (_call, model) => {
		const answer = model();
		const body = answer.body as { contacts: IDataObject[] };
		const contacts = body.contacts.filter(({ id }) => id !== 'ct_c');
		return { ...answer, body: { ...body, contacts, credits_charged: 'two' } };
	};
	api = await startContactApi({ respond: leaveOutCtC });
	const result = await runOn(api, {
		parameters: unlockParameters({ maxCredits: 3, ...WHAT_FITS }),
		inputItems: idItems(['ct_a', 'ct_b', 'ct_c']),
		continueOnFail: true,
	});
	expect(api.calls).toHaveLength(1);
	const ctC = result.items.filter(({ pairedItem }) => (pairedItem as { item: number }).item === 2);
	expect(ctC).toHaveLength(1);
	expect(ctC[0].json.error).toBeDefined();
	expect(textOf(ctC[0].json)).not.toMatch(/twice/);
});

describe('finding 6: Retry On Fail reports what the API charged across the tries of a run', () => {
	/** The model, with the account topped up once it refused a call for its balance (402). */
	const toppedUpAfter402 = (): Respond => {
		let toppedUp = false;
		return (call, model) => {
			const answer = model();
			if (answer.status === 402 && !toppedUp) {
				toppedUp = true;
				call.account.balance += 1_000;
			}
			return answer;
		};
	};

	/** Try 1 debited `firstTry` (its last call refused), try 2 replayed its first call: `total` in all. */
	const expectTries = (on: ContactApi, firstTry: number[], total: number) => {
		expect(on.calls.slice(0, 2).map(({ debited }) => debited)).toEqual(firstTry);
		expect(on.calls.slice(2).some(({ key }) => key === on.calls[0].key)).toBe(true);
		expect(on.debited()).toBe(total);
	};

	it('finding 6: Unlock 150 new ids on a balance of 100: 100 charged, 402, top-up, retry: 150 charged', async () => {
		api = await startContactApi({ balance: 100, respond: toppedUpAfter402() });
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 1_000 }),
			inputItems: idItems(contactIds('r', 150)),
			retryOnFail,
		});
		// Try 1: 100 charged, then 402; try 2: the first call replayed, the second charged 50.
		expectTries(api, [100, 0], 150);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(150);
		expect(new Set(result.items.map((item) => item.json.credits_charged_in_run))).toEqual(
			new Set([150]),
		);
		expect(chargesStated(hints(result).join(' '))).toEqual([150]);
	});

	it('finding 6: Enrich 2 items on a balance of 1: 1 charged, 402, top-up, retry: 2 charged', async () => {
		api = await startContactApi({ balance: 1, respond: toppedUpAfter402() });
		const result = await runOn(api, {
			parameters: enrichParameters({ maxCredits: 10 }),
			inputItems: emailItems(['ada@acme.example', 'grace@acme.example']),
			retryOnFail,
		});
		expectTries(api, [1, 0], 2);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.credits_charged_in_run)).toEqual([2, 2]);
		expect(chargesStated(hints(result).join(' '))).toEqual([2]);
	});
});
