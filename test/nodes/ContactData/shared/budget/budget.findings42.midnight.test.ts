/**
 * Issue 42's replay across midnight (measured on 2026-11-28, main `5ae6b48`): a call counts in the
 * UTC day it was first sent, also when Retry On Fail sends it again after midnight. Only `Date` is
 * faked (timers run as usual), and the transport's waits take no real time, moving the clock seam
 * on instead; the model of the API moves the seam past midnight once try 1 is over. On `5ae6b48`
 * the call counts in the new day, and a later run is refused for what that day never spent.
 */
import * as clock from '../../../../../nodes/ContactData/shared/client/clock';
import { startContactApi, type ContactApi, type Respond } from '../../../../support/contactApi.cjs';
import { idItems, unlockParameters } from '../../setup';
import { contactIds, fakeDateOnly, runOn, textOf } from './findings';

/** A midnight UTC later than any day a real clock, or another test, has counted in this process. */
const MIDNIGHT = Date.UTC(2033, 5, 20);

/** Sets the seam's clock (what the caps over time read) to `ms`. */
const setSeamTo = (ms: number) => jest.setSystemTime(ms - (clock.now() - Date.now()));

let api: ContactApi | undefined;
beforeEach(() => {
	fakeDateOnly(MIDNIGHT);
	clock.timeScale.waits = 0;
});
afterEach(async () => {
	clock.timeScale.waits = 1;
	jest.useRealTimers();
	await api?.close();
	api = undefined;
});

it('defect 3: a call charged before midnight and replayed after it counts in the day it was sent', async () => {
	// Try 1's call is charged, then every attempt of it meets a 503: five, and five more at the end
	// of the try. After the last the seam passes midnight; try 2 gets the first answer replayed.
	const unavailable = { status: 503, body: { error: { code: 'unavailable', message: 'Later' } } };
	let lostKey: string | undefined;
	const lostUntilMidnight: Respond = (call, model) => {
		const answer = model();
		if ((lostKey ??= call.key) !== call.key) return answer;
		const sends = api!.calls.filter(({ key }) => key === lostKey).length;
		if (sends === 10) setSeamTo(MIDNIGHT + 60_000);
		return sends <= 10 ? unavailable : answer;
	};
	api = await startContactApi({ respond: lostUntilMidnight });
	setSeamTo(MIDNIGHT - 60 * 60_000);
	const perDay = { maxCreditsPerDay: 10 };
	const first = await runOn(api, {
		parameters: unlockParameters({ maxCredits: 10, options: perDay }),
		inputItems: idItems(contactIds('m', 10)),
		retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
		nodeId: 'replay-across-midnight',
	});
	expect(first.error).toBeUndefined();
	expect(api.calls.map(({ debited }) => debited)).toEqual([10, ...Array<number>(10).fill(0)]);
	// A later run that day: the new day has spent nothing, so its 10 are there to spend.
	const later = await runOn(api, {
		parameters: unlockParameters({ maxCredits: 10, options: perDay }),
		inputItems: idItems(contactIds('n', 1)),
		nodeId: 'replay-across-midnight',
	});
	// Before: "… Earlier runs and calls of this node today already used 10 of the 10."
	expect(textOf(later.error)).not.toMatch(/already used/);
	expect(later.error).toBeUndefined();
	expect(api.debited()).toBe(11);
});
