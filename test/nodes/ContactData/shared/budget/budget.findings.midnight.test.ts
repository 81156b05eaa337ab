/**
 * Issue 37, finding 7 (measured on 2026-11-28): Max Credits per Day counts a call in the day (UTC)
 * it is sent, not the day its run started. Only `Date` is faked (timers run as usual): the clock
 * stands still, and the model of the API moves it past midnight when it answers the run's first
 * call. On `ad1acdf` the run counts all its calls in the day it started.
 */
import { startContactApi, type ContactApi, type Respond } from '../../../../support/contactApi.cjs';
import { idItems, unlockParameters, WHAT_FITS } from '../../setup';
import { contactIds, fakeDateOnly, runOn } from './findings';

/** A midnight UTC later than any day a real clock has counted in this process. */
const MIDNIGHT = Date.UTC(2031, 2, 15);

let api: ContactApi | undefined;
beforeEach(() => {
	fakeDateOnly(MIDNIGHT - 500);
});
afterEach(async () => {
	jest.useRealTimers();
	await api?.close();
	api = undefined;
});

it('finding 7: a run across midnight UTC leaves the new day only what it still may spend', async () => {
	let answered = 0;
	const pastMidnightAfterFirst: Respond = (_call, model) => {
		const answer = model();
		if (++answered === 1) jest.setSystemTime(MIDNIGHT + 100);
		return answer;
	};
	api = await startContactApi({ respond: pastMidnightAfterFirst });
	const options = { options: { maxCreditsPerDay: 300 } };
	// Run 1 starts 0.5 s before midnight: its first call (100 ids) that day, the other 200 after.
	const first = await runOn(api, {
		parameters: unlockParameters({ maxCredits: 300, ...options }),
		inputItems: idItems(contactIds('a', 300)),
		nodeId: 'across-midnight',
	});
	expect(first.error).toBeUndefined();
	const sentOn = (newDay: boolean) =>
		api!.calls
			.filter(({ receivedAt }) => receivedAt >= MIDNIGHT === newDay)
			.reduce((sum, { debited }) => sum + debited, 0);
	expect([sentOn(false), sentOn(true)]).toEqual([100, 200]);
	// Run 2, after midnight, may spend what the new day has left of its 300: 100.
	const second = await runOn(api, {
		parameters: unlockParameters({ maxCredits: 300, ...WHAT_FITS, ...options }),
		inputItems: idItems(contactIds('b', 300)),
		nodeId: 'across-midnight',
	});
	expect(second.error).toBeUndefined();
	expect(sentOn(true)).toBeLessThanOrEqual(300);
});
