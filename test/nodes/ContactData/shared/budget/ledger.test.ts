/**
 * The credit rules with plain values and a fake clock: reserve, settle, replay, held contacts,
 * impossible charges and the caps over time. No sandbox, no n8n.
 */
import {
	CreditBudget,
	tallyOf,
	type Cap,
	type Tally,
} from '../../../../../nodes/ContactData/shared/budget/ledger';

/** What Fits for a call of up to `wanted` contacts at 1 credit each. */
const whatFits = (budget: CreditBudget, wanted: number) => Math.min(wanted, budget.headroom);

const DAY = 24 * 3600 * 1000;
const NOON = Date.parse('2026-11-25T12:00:00Z');

const dayCap = (max: number, tally: Tally): Cap => ({
	label: 'Max Credits per Day',
	max,
	tally,
	leftField: 'left_today',
});

describe('reserve and settle', () => {
	it('reserves a worst case only while it fits, and the charge reported replaces it', () => {
		const budget = new CreditBudget(10);
		const first = budget.reserve(6, 'k1')!;
		expect(budget.reserve(5, 'k2')).toBeUndefined();
		expect(budget.headroom).toBe(4);
		expect(budget.settle(first, { credits_charged: 2, credits_remaining: 98 })).toBe(2);
		expect([budget.charged, budget.headroom, budget.creditsRemaining]).toEqual([2, 8, 98]);
		expect(budget.reserve(8, 'k2')).toBeDefined();
	});

	it.each([[-1], [1.5], ['3'], [null], [undefined]])(
		'an unreadable charge (%p) keeps the worst case held',
		(charge) => {
			const budget = new CreditBudget(10);
			const reservation = budget.reserve(6, 'k')!;
			expect(budget.settle(reservation, { credits_charged: charge })).toBeUndefined();
			expect(budget.headroom).toBe(4);
			expect(budget.impossibleCharges).toHaveLength(1);
		},
	);

	it('a charge above the worst case is counted as reported and ends the charging calls', () => {
		const budget = new CreditBudget(10);
		expect(budget.settle(budget.reserve(6, 'k')!, { credits_charged: 7 })).toBe(7);
		expect([budget.charged, budget.overcharge, budget.headroom]).toEqual([7, 7, 0]);
		expect(budget.reserve(0, 'held contacts')).toBeUndefined();
	});

	it('an overcharge ends the charging calls of the next tool calls and runs that share a cap', () => {
		const ledger = { charged: 0, reserved: 0 };
		const day = { charged: 0, reserved: 0 };
		const overcharged = new CreditBudget(10, ledger, true, [dayCap(10, day)]);
		overcharged.settle(overcharged.reserve(0, 'held contacts')!, { credits_charged: 50 });
		// The next tool call of the execution, its contacts held (priced 0): each would pass the cap
		// by one more call of a misbehaving API.
		const nextToolCall = new CreditBudget(10, ledger, true, [dayCap(10, day)]);
		expect(nextToolCall.reserve(0, 'held again')).toBeUndefined();
		// A later run today (a new Max Credits ledger) under the same Max Credits per Day.
		const laterRun = new CreditBudget(10, { charged: 0, reserved: 0 }, false, [dayCap(10, day)]);
		expect(laterRun.reserve(0, 'held today')).toBeUndefined();
	});

	it('a refused call (nothing charged) gives its room back', () => {
		const budget = new CreditBudget(5);
		budget.release(budget.reserve(5)!);
		expect(budget.headroom).toBe(5);
	});
});

describe('replays', () => {
	it('a key settled before is a replay: counted once, with or without the API saying so', () => {
		const ledger = { charged: 0, reserved: 0 };
		const first = new CreditBudget(10, ledger, true);
		first.settle(first.reserve(3, 'same')!, { credits_charged: 3 });
		const second = new CreditBudget(10, ledger, true);
		expect(second.settle(second.reserve(3, 'same')!, { credits_charged: 3 })).toBe(0);
		const third = new CreditBudget(10, ledger, true);
		expect(third.settle(third.reserve(3, 'same')!, { credits_charged: 3 }, true)).toBe(0);
		expect([ledger.charged, ledger.reserved]).toEqual([3, 0]);
		expect([first.replayedHere, second.replayedHere, third.replayedHere]).toEqual([0, 1, 1]);
		expect([first.chargedHere, second.chargedHere]).toEqual([3, 0]);
	});

	it('a key settled before needs no room: its replay is reserved at 0 and counts nothing', () => {
		const ledger = { charged: 0, reserved: 0 };
		const first = new CreditBudget(4, ledger, true);
		first.settle(first.reserve(3, 'same')!, { credits_charged: 3 });
		const second = new CreditBudget(4, ledger, true);
		expect(second.sentBefore('same')).toBe(true);
		expect(second.reserve(3, 'other')).toBeUndefined();
		const replay = second.reserve(3, 'same')!;
		expect(replay.credits).toBe(0);
		expect(second.settle(replay, { credits_charged: 3 })).toBe(0);
		expect([ledger.charged, ledger.reserved, second.impossibleCharges]).toEqual([3, 0, []]);
	});

	it('a first answer marked replayed (its first send lost) is still its one charge', () => {
		const budget = new CreditBudget(10);
		expect(budget.settle(budget.reserve(3, 'k')!, { credits_charged: 3 }, true)).toBe(3);
		expect([budget.charged, budget.replayedHere]).toEqual([3, 1]);
	});

	it('a lost call keeps its worst case; the same key later takes it over even with no room left', () => {
		const ledger = { charged: 0, reserved: 0 };
		const lostRun = new CreditBudget(4, ledger, true);
		lostRun.keepLost(lostRun.reserve(4, 'lost')!);
		const next = new CreditBudget(4, ledger, true);
		expect(next.headroom).toBe(0);
		expect(next.reserve(1, 'other')).toBeUndefined();
		expect(next.sentBefore('lost')).toBe(true);
		const takenOver = next.reserve(4, 'lost')!;
		expect(takenOver.credits).toBe(4);
		expect(next.settle(takenOver, { credits_charged: 1 })).toBe(1);
		expect([ledger.charged, ledger.reserved, next.headroom]).toEqual([1, 0, 3]);
	});
});

describe('held contacts (issue 31)', () => {
	it('a contact seen charged at a level is free at that level or below, and needs no room', () => {
		const ledger = { charged: 0, reserved: 0 };
		const first = new CreditBudget(2, ledger);
		first.settle(first.reserve(2, 'k')!, { credits_charged: 2 });
		first.hold('ct_a', 2);
		first.hold('ct_b', 1);
		first.hold('ct_b', 0);
		const retry = new CreditBudget(2, ledger);
		expect(retry.headroom).toBe(0);
		expect([retry.priceOf('ct_a', 2, 2), retry.priceOf('ct_a', 1, 1)]).toEqual([0, 0]);
		expect([retry.priceOf('ct_b', 1, 1), retry.priceOf('ct_b', 2, 2)]).toEqual([0, 2]);
		expect(retry.priceOf('ct_new', 1, 1)).toBe(1);
		expect(retry.reserve(0, 'held again')).toBeDefined();
	});

	it('a lost call is found by its first id, with its ids, and taken over by its key', () => {
		const ledger = { charged: 0, reserved: 0 };
		const lostRun = new CreditBudget(3, ledger);
		lostRun.keepLost(lostRun.reserve(3, 'k')!, ['ct_a', 'ct_b', 'ct_c']);
		const next = new CreditBudget(3, ledger);
		expect(next.lostCallFrom('ct_a')).toEqual(['ct_a', 'ct_b', 'ct_c']);
		expect(next.lostCallFrom('ct_b')).toBeUndefined();
		expect(next.reserve(3, 'k')!.credits).toBe(3);
		expect(ledger).toMatchObject({ reserved: 3, lost: {} });
	});

	it('remembers at most 100,000 held contacts, forgetting the oldest 1,000 (which only costs more)', () => {
		const ledger: Tally = { charged: 0, reserved: 0 };
		const budget = new CreditBudget(1, ledger);
		for (let id = 0; id <= 100_000; id++) budget.hold(`ct_${id}`, 1);
		expect(Object.keys(ledger.held!)).toHaveLength(99_001);
		expect([budget.priceOf('ct_999', 1, 1), budget.priceOf('ct_1000', 1, 1)]).toEqual([1, 0]);
		expect(JSON.parse(JSON.stringify(ledger)).sizes).toEqual({ held: 99_001 });
	});
});

describe('caps over time (a fake clock)', () => {
	it('a day’s tally is the node’s for that UTC day: the same all day, fresh the next', () => {
		const store = new Map<string, Tally>();
		const morning = tallyOf('wf|node', { now: NOON - 11 * 3600 * 1000 }, store);
		morning.charged = 4;
		expect(tallyOf('wf|node', { now: NOON + 11 * 3600 * 1000 }, store)).toBe(morning);
		expect(tallyOf('wf|node', { now: NOON + DAY }, store).charged).toBe(0);
		expect(tallyOf('wf|other', { now: NOON }, store).charged).toBe(0);
		expect(tallyOf('wf|node', { session: 's1' }, store)).not.toBe(
			tallyOf('wf|node', { session: 's2' }, store),
		);
	});

	it('keeps at most 10,000 tallies, dropping the oldest', () => {
		const store = new Map<string, Tally>();
		const oldest = tallyOf('node', { session: 'first' }, store);
		for (let session = 0; session < 10_000; session++)
			tallyOf('node', { session: `s${session}` }, store);
		expect(store.size).toBe(10_000);
		expect(tallyOf('node', { session: 'first' }, store)).not.toBe(oldest);
	});

	it('10,000 new MCP sessions never drop the day’s tally: the daily cap holds', () => {
		const store = new Map<string, Tally>();
		const spent = new CreditBudget(1000, undefined, false, [
			dayCap(100, tallyOf('wf|n', { now: NOON }, store)),
		]);
		spent.settle(spent.reserve(100, 'k1')!, { credits_charged: 100 });
		for (let session = 0; session < 10_000; session++)
			tallyOf('wf|n', { session: `s${session}` }, store);
		const later = new CreditBudget(1000, undefined, false, [
			dayCap(100, tallyOf('wf|n', { now: NOON + 1000 }, store)),
		]);
		expect(later.headroom).toBe(0);
	});

	it('a lost call taken over after midnight releases from the day it was held in', () => {
		const store = new Map<string, Tally>();
		const ledger = { charged: 0, reserved: 0 };
		const yesterday = tallyOf('wf|n', { now: NOON }, store);
		const before = new CreditBudget(1000, ledger, true, [dayCap(100, yesterday)]);
		before.keepLost(before.reserve(50, 'lost')!);
		const today = tallyOf('wf|n', { now: NOON + DAY }, store);
		const after = new CreditBudget(1000, ledger, true, [dayCap(100, today)]);
		after.settle(after.reserve(50, 'lost')!, { credits_charged: 50 });
		expect(today).toMatchObject({ charged: 50, reserved: 0 });
		expect(after.headroom).toBe(50);
		expect(ledger).toMatchObject({ charged: 50, reserved: 0 });
	});

	it('runs sharing a day cap never pass it together; the tightest cap is the one named', () => {
		const day = { charged: 0, reserved: 0 };
		const runs = [
			new CreditBudget(5, undefined, false, [dayCap(6, day)]),
			new CreditBudget(5, undefined, false, [dayCap(6, day)]),
		];
		const reserved = runs.map((budget) => budget.reserve(whatFits(budget, 4)));
		expect(reserved.map((reservation) => reservation?.credits)).toEqual([4, 2]);
		expect(runs[1].tightest.label).toBe('Max Credits per Day');
		runs.forEach((budget, index) =>
			budget.settle(reserved[index]!, { credits_charged: reserved[index]!.credits }),
		);
		expect(day).toEqual({ charged: 6, reserved: 0 });
		expect(new CreditBudget(5, undefined, false, [dayCap(6, day)]).headroom).toBe(0);
	});

	it('a lost answer keeps its worst case against the day cap too', () => {
		const day = { charged: 0, reserved: 0 };
		const budget = new CreditBudget(5, undefined, false, [dayCap(5, day)]);
		budget.keepLost(budget.reserve(3, 'lost')!);
		expect(day).toMatchObject({ charged: 0, reserved: 3 });
	});
});

describe('a replay counted once across runs (each run its own ledger, one day tally)', () => {
	const runOf = (day: Tally, max = 1000) =>
		new CreditBudget(max, undefined, false, [dayCap(300, day)]);

	it('Retry On Fail: the second run takes the lost call over in the day and counts its charge once', () => {
		const day = tallyOf('wf|retry', { now: NOON }, new Map());
		const first = runOf(day);
		first.keepLost(first.reserve(150, 'k')!);
		const retry = runOf(day);
		expect(retry.sentBefore('k')).toBe(true);
		expect(retry.settle(retry.reserve(150, 'k')!, { credits_charged: 150 }, true)).toBe(150);
		expect(day).toMatchObject({ charged: 150, reserved: 0 });
		expect(runOf(day).headroom).toBe(150);
	});

	it('a key the day counted is replayed free in a later run: nothing more in the day, none refused', () => {
		const day = tallyOf('wf|later', { now: NOON }, new Map());
		const first = runOf(day);
		first.settle(first.reserve(300, 'k')!, { credits_charged: 300 });
		const later = runOf(day, 300);
		expect(later.headroom).toBe(0);
		const replay = later.reserve(300, 'k')!;
		expect(replay).toBeDefined();
		expect(later.settle(replay, { credits_charged: 300 }, true)).toBe(300);
		expect(day).toMatchObject({ charged: 300, reserved: 0 });
	});

	it('a tally remembers at most 10,000 settled keys, forgetting the oldest 1,000 (which only counts more)', () => {
		const day = tallyOf('wf|many', { now: NOON }, new Map());
		const runOn = () => new CreditBudget(1e9, undefined, false, [dayCap(1e9, day)]);
		const budget = runOn();
		for (let call = 0; call <= 10_000; call++)
			budget.settle(budget.reserve(1, `k${call}`)!, { credits_charged: 1 });
		expect(Object.keys(day.settled ?? {})).toHaveLength(9_001);
		expect([day.settled?.k999, day.settled?.k1000]).toEqual([undefined, 1]);
		const later = runOn();
		later.settle(later.reserve(1, 'k999')!, { credits_charged: 1 }, true);
		later.settle(later.reserve(1, 'k1000')!, { credits_charged: 1 }, true);
		expect(day.charged).toBe(10_002);
	});
});

describe('answers marked replayed, or not, that the ledger can check (issue 30, 4c)', () => {
	it('a replay whose charge differs from the first answer’s is unreadable: nothing counted, its worst case held', () => {
		const ledger = { charged: 0, reserved: 0 };
		const first = new CreditBudget(10, ledger, true);
		first.settle(first.reserve(3, 'k')!, { credits_charged: 3 });
		const second = new CreditBudget(10, ledger, true);
		expect(second.settle(second.reserve(3, 'k')!, { credits_charged: 5 }, true)).toBeUndefined();
		expect(second.impossibleCharges).toEqual(['5']);
		expect(ledger).toMatchObject({ charged: 3, reserved: 0 });
	});

	it('in a later run, a replay whose charge differs from what the day remembers keeps the run’s worst case held', () => {
		const day = tallyOf('wf|differs', { now: NOON }, new Map());
		const first = new CreditBudget(1000, undefined, false, [dayCap(300, day)]);
		first.settle(first.reserve(100, 'k')!, { credits_charged: 100 });
		const retry = new CreditBudget(150, undefined, false, [dayCap(300, day)]);
		expect(retry.settle(retry.reserve(100, 'k')!, { credits_charged: 40 }, true)).toBeUndefined();
		expect([retry.chargedHere, retry.reservedHere, retry.headroom]).toEqual([0, 100, 50]);
		expect(retry.impossibleCharges).toEqual(['40']);
		expect(day).toMatchObject({ charged: 100, reserved: 0 });
	});

	it('a key the day settled counts nothing more there, the header missing; the new run counts it once', () => {
		const day = tallyOf('wf|missing', { now: NOON }, new Map());
		const first = new CreditBudget(1000, undefined, false, [dayCap(300, day)]);
		first.settle(first.reserve(100, 'k')!, { credits_charged: 100 });
		const retry = new CreditBudget(1000, undefined, false, [dayCap(300, day)]);
		expect(retry.settle(retry.reserve(100, 'k')!, { credits_charged: 100 })).toBe(100);
		expect(day).toMatchObject({ charged: 100, reserved: 0 });
	});

	it('a first answer marked replayed (forged) that no tally settled is counted as reported, everywhere', () => {
		const day = tallyOf('wf|forged', { now: NOON }, new Map());
		const budget = new CreditBudget(1000, undefined, false, [dayCap(300, day)]);
		expect(budget.settle(budget.reserve(100, 'k')!, { credits_charged: 60 }, true)).toBe(60);
		expect([budget.charged, budget.chargedHere]).toEqual([60, 60]);
		expect(day).toMatchObject({ charged: 60, reserved: 0 });
		expect(budget.headroom).toBe(240);
	});
});

describe('caps over time, adversarial (issue 30, build item 5)', () => {
	it('session ids written like a day’s key are sessions still: evicted as such, at most 10,000 tallies', () => {
		const store = new Map<string, Tally>();
		const day = tallyOf('wf|n', { now: NOON }, store);
		day.charged = 100;
		for (let session = 0; session < 10_050; session++)
			tallyOf('wf|n', { session: `s${session}|day|9999-12-31` }, store);
		expect(store.size).toBe(10_000);
		expect(tallyOf('wf|n', { now: NOON }, store)).toBe(day);
	});

	it('a clock set back across midnight does not open a fresh day: the latest day’s tally counts', () => {
		const store = new Map<string, Tally>();
		tallyOf('wf|n', { now: NOON }, store).charged = 100;
		const next = tallyOf('wf|n', { now: NOON + DAY }, store);
		next.charged = 100;
		const back = tallyOf('wf|n', { now: NOON + DAY - 13 * 3600 * 1000 }, store);
		expect(back).toBe(next);
		expect(new CreditBudget(1000, undefined, false, [dayCap(100, back)]).headroom).toBe(0);
	});

	it('runs in parallel across midnight: each counts in the day it began; the new day starts at 0', () => {
		const store = new Map<string, Tally>();
		const before = new CreditBudget(100, undefined, false, [
			dayCap(100, tallyOf('wf|n', { now: NOON + 11.9 * 3600 * 1000 }, store)),
		]);
		const late = before.reserve(100, 'late')!;
		const after = new CreditBudget(100, undefined, false, [
			dayCap(100, tallyOf('wf|n', { now: NOON + 12.1 * 3600 * 1000 }, store)),
		]);
		expect(after.headroom).toBe(100);
		before.settle(late, { credits_charged: 100 });
		expect(after.headroom).toBe(100);
		expect(before.caps[1].tally).toMatchObject({ charged: 100, reserved: 0 });
	});

	it('ten runs at once sharing a day cap of 25 (What Fits, 10 each) reserve 25 in all, never more', () => {
		const day = tallyOf('wf|parallel', { now: NOON }, new Map());
		const runs = Array.from(
			{ length: 10 },
			() => new CreditBudget(10, undefined, false, [dayCap(25, day)]),
		);
		const reserved = runs.map((budget, at) => budget.reserve(whatFits(budget, 10), `k${at}`));
		expect(reserved.map((reservation) => reservation?.credits ?? 0)).toEqual([
			10, 10, 5, 0, 0, 0, 0, 0, 0, 0,
		]);
		expect(day).toMatchObject({ charged: 0, reserved: 25 });
	});
});
