/**
 * The in-memory record of accepted event ids behind the trigger's fast duplicate check: kept for
 * as long as a copy of the delivery could still verify, and bounded however fast events come.
 */
import { AcceptedEvents } from '../../../../nodes/ContactData/trigger/acceptedEvents';
import { WEBHOOKS } from '../../../../nodes/ContactData/shared/client/contract';

const WINDOW_MS = WEBHOOKS.toleranceSeconds * 1000;
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);

describe('AcceptedEvents', () => {
	it('keeps an id until its signed timestamp leaves the window, and at least a full window after acceptance', () => {
		const record = new AcceptedEvents(100);
		// Signed 4 minutes before it arrived (a slow sender's clock): a retry re-signed later still counts.
		record.accept('sub_1', 'evt_a', T0 - 4 * 60_000, T0);
		// Signed 4 minutes ahead: its own bytes verify until 9 minutes after acceptance.
		record.accept('sub_1', 'evt_b', T0 + 4 * 60_000, T0);

		expect(record.wasAccepted('sub_1', 'evt_a', T0 + WINDOW_MS - 1)).toBe(true);
		expect(record.wasAccepted('sub_1', 'evt_a', T0 + WINDOW_MS + 1)).toBe(false);
		expect(record.wasAccepted('sub_1', 'evt_b', T0 + 9 * 60_000 - 1)).toBe(true);
		expect(record.wasAccepted('sub_1', 'evt_b', T0 + 9 * 60_000 + 1)).toBe(false);
		expect(record.wasAccepted('sub_2', 'evt_a', T0)).toBe(false);
	});

	it('forgets expired ids as new ones come, so memory follows the event rate, not the history', () => {
		const record = new AcceptedEvents(1_000_000);
		for (let minute = 0; minute < 60; minute++) {
			for (let i = 0; i < 100; i++)
				record.accept('sub_1', `evt_${minute}_${i}`, T0 + minute * 60_000, T0 + minute * 60_000);
		}
		// Five minutes of events (plus the minute being filled) at 100 a minute, not the hour's 6,000.
		expect(record.size).toBeLessThanOrEqual(600);
		expect(record.wasAccepted('sub_1', 'evt_59_0', T0 + 59 * 60_000)).toBe(true);
		expect(record.wasAccepted('sub_1', 'evt_50_0', T0 + 59 * 60_000)).toBe(false);
	});

	it('holds at most its capacity, dropping the oldest first', () => {
		const record = new AcceptedEvents(1_000);
		for (let i = 0; i < 5_000; i++) record.accept('sub_1', `evt_${i}`, T0, T0);
		expect(record.size).toBe(1_000);
		expect(record.wasAccepted('sub_1', 'evt_4999', T0)).toBe(true);
		expect(record.wasAccepted('sub_1', 'evt_3999', T0)).toBe(false);
	});
});
