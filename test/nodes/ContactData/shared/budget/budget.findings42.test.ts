/**
 * Issue 42's money defects (measured on 2026-11-28, main `5ae6b48`) on the canvas, in n8n's engine
 * against a model of the API on loopback. On `5ae6b48` each fails for the reason the issue gives.
 */
import type { IDataObject } from 'n8n-workflow';

import { startContactApi, type ContactApi, type Respond } from '../../../../support/contactApi.cjs';
import { hints, idItems, unlockParameters } from '../../setup';
import { contactIds, runOn, textOf } from './findings';

let api: ContactApi | undefined;
afterEach(async () => {
	await api?.close();
	api = undefined;
});

const retryOnFail = { maxTries: 2, waitBetweenTries: 1 };

it('defect 1: after an overcharge, Retry On Fail sends no further call and tells the impossible charge', async () => {
	// The first call (100 ids, worst case 100) is debited 100 and reports 105.
	let answered = 0;
	const overchargeFirst: Respond = (_call, model) => {
		const answer = model();
		if (++answered > 1) return answer;
		return { ...answer, body: { ...(answer.body as IDataObject), credits_charged: 105 } };
	};
	api = await startContactApi({ respond: overchargeFirst });
	const result = await runOn(api, {
		parameters: unlockParameters({ maxCredits: 200 }),
		inputItems: idItems(contactIds('o', 150)),
		retryOnFail,
	});
	// Before: try 2 sent a new call for the other 50 ids, and said only "105 held back for answers
	// that were lost".
	expect(api.calls.map(({ body }) => body.ids?.length)).toEqual([100]);
	const told = [textOf(result.error), ...hints(result)].join(' ');
	expect(told).toMatch(/impossible charge \(credits_charged: 105\)/);
});
