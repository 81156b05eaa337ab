/**
 * Issue 43, item 5: one rule for a run bound to fail. Without Continue On Fail, once an answer fails
 * an item (an id the API does not know, a person it cannot match), no new queued call is sent, in
 * Unlock and Enrich alike: the credits a later call would spend buy nothing the run can output.
 * With Continue On Fail every call is sent. In n8n's engine against a model of the API on loopback.
 */
import { startContactApi, type ContactApi } from '../../../../support/contactApi.cjs';
import { enrichParameters, idItems, unlockParameters } from '../../setup';
import { chargesStated, runOn, textOf } from './findings';

let api: ContactApi | undefined;
afterEach(async () => {
	await api?.close();
	api = undefined;
});

/** 150 ids, the first unknown to the API: two calls of 100 and 50. */
const ids = ['ct_unknown', ...Array.from({ length: 149 }, (_, n) => `ct_${n}`)];

describe('Unlock: an unknown id in an answer', () => {
	it('without Continue On Fail: the next 50 ids are not sent, and the error names the id', async () => {
		api = await startContactApi({ unknown: ['ct_unknown'] });
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 200 }),
			inputItems: idItems(ids),
		});
		expect(api.calls.map((call) => call.body.ids?.length)).toEqual([100]);
		expect(api.debited()).toBe(99);
		expect(textOf(result.error)).toContain('ct_unknown');
		expect(chargesStated(textOf(result.error))).toEqual([99]);
	});

	it('with Continue On Fail: every id is sent, the unknown one an error item', async () => {
		api = await startContactApi({ unknown: ['ct_unknown'] });
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 200 }),
			inputItems: idItems(ids),
			continueOnFail: true,
		});
		expect(api.calls.map((call) => call.body.ids?.length)).toEqual([100, 50]);
		expect(result.items).toHaveLength(150);
		expect(result.items.filter((item) => item.json.error !== undefined)).toHaveLength(1);
	});
});

it('Enrich: without Continue On Fail, a no-match stops the lookups after it', async () => {
	api = await startContactApi({ unknown: ['nobody@acme.example'] });
	const emails = ['ada@acme.example', 'nobody@acme.example', 'bo@acme.example'];
	const result = await runOn(api, {
		parameters: enrichParameters({ maxCredits: 10 }),
		inputItems: emails.map((email) => ({ json: { email } })),
	});
	expect(api.calls.map((call) => call.body.email)).toEqual(emails.slice(0, 2));
	expect(chargesStated(textOf(result.error))).toEqual([1]);
});
