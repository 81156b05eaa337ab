/**
 * The credit rules with plain values and a fake clock: reserve, settle, replay, what an account
 * holds, settled and lost, and the caps over time. No sandbox, no n8n.
 */
import {
	accountOf,
	type Account,
	type SentCall,
} from '../../../../../nodes/ContactData/shared/budget/account';
import {
	CreditBudget,
	newTally,
	tallyOf,
	type Cap,
	type Reservation,
	type Tally,
} from '../../../../../nodes/ContactData/shared/budget/ledger';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
const NOON = Date.parse('2026-11-25T12:00:00Z');

const dayCap = (max: number, tally: Tally): Cap => ({ label: 'Max Credits per Day', max, tally });

/** A day cap read on a fake clock at each use, as chargingRun reads it on Date.now(). */
const dayCapOn =
	(max: number, clock: { now: number }, store = new Map<string, Tally>()) =>
	() => [dayCap(max, tallyOf('wf|n', { now: clock.now }, store))];

/** As chargingRun builds it: Max Credits counts the run's tally (its tries'), or the execution's. */
function budgetOf(
	max: number,
	setup: { run?: Tally; account?: Account; execution?: Tally; overTime?: () => Cap[] } = {},
) {
	const { run = newTally(), account = accountOf({}), execution, overTime = () => [] } = setup;
	const maxCap = { label: 'Max Credits', max, tally: execution ?? run };
	return new CreditBudget(max, run, account, () => [maxCap, ...overTime()], !!execution);
}

const BASIC = { level: 'basic', node: 'n1' } as const;
const sent = (key: string, units: string[] = []): SentCall => ({ key, units, ...BASIC });

/** Settles a call with the charge its answer reports: what the budget counted. */
const settle = (b: CreditBudget, r: Reservation, reported: unknown, replayed = false) =>
	b.settle(r, sent(r.key!), { credits_charged: reported }, replayed);

const charge = (b: CreditBudget, worst: number, key: string, reported: unknown, replayed = false) =>
	settle(b, b.reserve(worst, key)!, reported, replayed);

const lose = (budget: CreditBudget, credits: number, key: string, units: string[] = []) =>
	budget.keepLost(budget.reserve(credits, key)!, sent(key, units));

describe('reserve and settle', () => {
	it('reserves a worst case only while it fits, and the charge reported replaces it', () => {
		const budget = budgetOf(10);
		const first = budget.reserve(6, 'k1')!;
		expect(budget.reserve(5, 'k2')).toBeUndefined();
		expect(budget.headroom).toBe(4);
		const report = { credits_charged: 2, credits_remaining: 98 };
		expect(budget.settle(first, sent('k1'), report, false)).toBe(2);
		expect([budget.run.charged, budget.headroom, budget.creditsRemaining]).toEqual([2, 8, 98]);
		budget.release(budget.reserve(8, 'refused')!); // refused: nothing charged, its room is given back
		expect(budget.reserve(8, 'k2')).toBeDefined();
	});

	it.each([[-1], [1.5], ['3'], [null], [undefined]])(
		'an unreadable charge (%p) keeps the worst case held, also when its key is replayed',
		(reported) => {
			const budget = budgetOf(10);
			expect(charge(budget, 6, 'k', reported)).toBeUndefined();
			expect([budget.headroom, budget.impossibleCharges.length]).toEqual([4, 1]);
			expect(charge(budget, 6, 'k', 3, true)).toBe(0);
			expect(budget.run).toMatchObject({ charged: 0, reserved: 6 });
			// The first charge unknown, the replay's is no other charge than the first: noted once.
			expect(budget.impossibleCharges).toHaveLength(1);
		},
	);

	it('an unreadable charge’s worst case stays held: a release after it frees nothing', () => {
		const budget = budgetOf(10);
		const reservation = budget.reserve(6, 'k')!;
		expect(settle(budget, reservation, -1)).toBeUndefined();
		budget.release(reservation);
		expect([budget.run.reserved, budget.headroom]).toEqual([6, 4]);
	});

	it('a charge above the worst case is held back as reported and ends the charging calls of every run and tool call sharing a cap', () => {
		const [execution, day] = [newTally(), newTally()];
		const overTime = () => [dayCap(10, day)];
		const budget = budgetOf(10, { execution, overTime });
		// Unreadable (an answer the contract rules out, or an API that charged more than it may).
		expect(charge(budget, 6, 'k', 7)).toBeUndefined();
		expect([budget.run.charged, budget.run.reserved, budget.overcharge]).toEqual([0, 7, 7]);
		expect([budget.headroom, day.reserved]).toEqual([0, 7]);
		expect(budget.reserve(0, 'held contacts')).toBeUndefined();
		charge(budgetOf(10, { execution, overTime }), 0, 'held contacts', 50);
		// Each would pass the cap by one more call of a misbehaving API, its contacts priced 0.
		expect(budgetOf(10, { execution, overTime }).reserve(0, 'next tool call')).toBeUndefined();
		expect(budgetOf(10, { overTime }).reserve(0, 'later run today')).toBeUndefined();
	});

	it('tool calls share Max Credits (the execution’s tally); each keeps its own run tally', () => {
		const execution = newTally();
		const first = budgetOf(10, { execution });
		charge(first, 4, 'a', 4);
		const second = budgetOf(10, { execution });
		expect([second.shared, second.headroom]).toEqual([true, 6]);
		charge(second, 6, 'b', 5);
		expect([first.run.charged, second.run.charged, execution.charged]).toEqual([4, 5, 9]);
		second.holdBack(1);
		expect([first.run.reserved, second.run.reserved, execution.reserved]).toEqual([0, 1, 1]);
	});

	it('a new call charged 0 (its contacts held already) counts 0, frees its worst case, and is no impossible charge', () => {
		const budget = budgetOf(10);
		expect(charge(budget, 5, 'k', 0)).toBe(0);
		expect([budget.run.charged, budget.run.reserved, budget.headroom]).toEqual([0, 0, 10]);
		expect(budget.impossibleCharges).toEqual([]);
	});

	it('a refusal frees its worst case once: released again, it frees nothing more', () => {
		const budget = budgetOf(10);
		const refused = budget.reserve(5, 'k')!;
		budget.release(refused);
		budget.release(refused);
		expect([budget.run.reserved, budget.headroom]).toEqual([0, 10]);
	});

	it('asking again for left-out ids: an overcharge holds back what the answer before may have charged, an unreadable charge holds only its worst case', () => {
		const again = { ...sent('again'), covers: 3 };
		const over = budgetOf(100);
		expect(over.settle(over.reserve(5, 'again')!, again, { credits_charged: 7 }, false)).toBe(
			undefined,
		);
		expect(over.run.reserved).toBe(7 + 3);
		const unreadable = budgetOf(100);
		unreadable.settle(unreadable.reserve(5, 'again')!, again, { credits_charged: -1 }, false);
		expect(unreadable.run.reserved).toBe(5);
	});

	it('holdBack holds credits for good in the run and every cap, past what they leave', () => {
		const day = newTally();
		const budget = budgetOf(5, { overTime: () => [dayCap(5, day)] });
		budget.holdBack(3);
		budget.holdBack(4);
		expect([budget.run.reserved, day.reserved, budget.headroom]).toEqual([7, 7, 0]);
		expect(budget.reserve(1, 'k')).toBeUndefined();
	});
});

describe('replays: a charge belongs to the run that first settled its key', () => {
	it('a key the account settled counts 0 in every tally, whatever run replays it, with or without the header', () => {
		const [account, day] = [accountOf({}), newTally()];
		const overTime = () => [dayCap(3, day)];
		const first = budgetOf(10, { account, overTime });
		expect(charge(first, 3, 'same', 3)).toBe(3);
		const second = budgetOf(10, { account, overTime });
		const third = budgetOf(10, { account, overTime });
		// The day cap is spent, yet never refuses the replay.
		expect(charge(second, 3, 'same', 3)).toBe(0);
		expect(charge(third, 3, 'same', 3, true)).toBe(0);
		expect([first.run.charged, second.run.charged, third.run.charged]).toEqual([3, 0, 0]);
		expect([day.charged, day.reserved, second.run.reserved]).toEqual([3, 0, 0]);
		expect([first.replayedHere, second.replayedHere, third.replayedHere]).toEqual([0, 1, 1]);
	});

	it('Retry On Fail: a try replaying an earlier try’s call needs no room, and the run keeps its charge', () => {
		const [account, run] = [accountOf({}), newTally()];
		charge(budgetOf(4, { account, run }), 3, 'same', 3);
		const retry = budgetOf(4, { account, run });
		expect(retry.sentBefore('same')).toBe(true);
		expect(retry.reserve(3, 'other')).toBeUndefined();
		const replay = retry.reserve(3, 'same')!;
		expect(replay.credits).toBe(0);
		expect(settle(retry, replay, 3, true)).toBe(0);
		expect([run.charged, run.reserved, retry.impossibleCharges]).toEqual([3, 0, []]);
	});

	it('a replay that is a try’s only answer tells its balance', () => {
		const [account, run] = [accountOf({}), newTally()];
		charge(budgetOf(4, { account, run }), 3, 'same', 3);
		const retry = budgetOf(4, { account, run });
		const report = { credits_charged: 3, credits_remaining: 97 };
		expect(retry.settle(retry.reserve(3, 'same')!, sent('same'), report, true)).toBe(0);
		expect(retry.creditsRemaining).toBe(97);
	});

	it('the balance told is the latest answer read’s; a replay’s is as of its first send', () => {
		const report = (remaining: number) => ({ credits_charged: 10, credits_remaining: remaining });
		const fresh = budgetOf(100);
		const [a, b] = [fresh.reserve(10, 'a')!, fresh.reserve(10, 'b')!];
		fresh.settle(b, sent('b'), report(900), false);
		fresh.settle(a, sent('a'), report(890), false);
		expect(fresh.creditsRemaining).toBe(890);
		const replayed = budgetOf(100);
		const [lost, later] = [replayed.reserve(10, 'lost')!, replayed.reserve(10, 'later')!];
		replayed.settle(later, sent('later'), report(900), false);
		replayed.settle(lost, sent('lost'), report(950), true);
		expect(replayed.creditsRemaining).toBe(900);
	});

	it('a first answer marked replayed (first send lost, or a forged header) is still its one charge', () => {
		const day = newTally();
		const budget = budgetOf(1000, { overTime: () => [dayCap(300, day)] });
		expect(charge(budget, 100, 'k', 60, true)).toBe(60);
		expect([budget.run.charged, day.charged, budget.headroom]).toEqual([60, 60, 240]);
		expect(budget.replayedHere).toBe(1);
	});

	it.each([[5], ['3'], [null]])(
		'a replay reporting another charge (%p) than the first is noted, and counts 0',
		(reported) => {
			const account = accountOf({});
			charge(budgetOf(10, { account }), 3, 'k', 3);
			const later = budgetOf(10, { account });
			expect(charge(later, 3, 'k', reported, true)).toBe(0);
			expect(later.impossibleCharges).toEqual([JSON.stringify(reported)]);
			expect(later.run).toMatchObject({ charged: 0, reserved: 0 });
		},
	);
});

describe('lost calls: kept by the account, their worst case by each tally', () => {
	it('Retry On Fail: the next try takes the lost worst case over with no room left, and counts its charge once', () => {
		const [account, run, day] = [accountOf({}), newTally(), newTally()];
		const overTime = () => [dayCap(300, day)];
		lose(budgetOf(4, { account, run, overTime }), 4, 'lost', ['ct_a', 'ct_b']);
		expect(account.lost.lost).toEqual({ ...sent('lost', ['ct_a', 'ct_b']), credits: 4 });
		for (const tally of [run, day])
			expect(tally).toEqual({ charged: 0, reserved: 4, lostWorstCases: { lost: 4 } });
		const retry = budgetOf(4, { account, run, overTime });
		expect(retry.sentBefore('lost')).toBe(true);
		expect(retry.headroom).toBe(0);
		expect(retry.reserve(1, 'other')).toBeUndefined();
		const takenOver = retry.reserve(4, 'lost')!;
		expect(takenOver.credits).toBe(4);
		expect(settle(retry, takenOver, 1, true)).toBe(1);
		for (const tally of [run, day])
			expect(tally).toEqual({ charged: 1, reserved: 0, lostWorstCases: {} });
		expect([account.lost, retry.headroom]).toEqual([{}, 3]);
	});

	it('a lost call’s worst case stays held: a release after it frees nothing', () => {
		const budget = budgetOf(10);
		const reservation = budget.reserve(5, 'k')!;
		budget.keepLost(reservation, sent('k'));
		budget.release(reservation);
		expect([budget.run.reserved, budget.headroom]).toEqual([5, 5]);
	});

	it.each([
		['refused', (b: CreditBudget, r: Reservation) => b.release(r)],
		['settled', (b: CreditBudget, r: Reservation) => settle(b, r, 3)],
	])('a call already %s is not kept as lost afterwards', (_, close) => {
		const budget = budgetOf(10);
		const reservation = budget.reserve(5, 'k')!;
		close(budget, reservation);
		budget.keepLost(reservation, sent('k'));
		expect([budget.account.lost, budget.account.sizes.lost]).toEqual([{}, 0]);
		expect(budget.run.lostWorstCases).toBeUndefined();
		expect(budget.sentBefore('other')).toBe(false);
	});

	it('a loop’s next run sends a lost call again: the charge may be the earlier run’s, so both hold it back', () => {
		const [account, day] = [accountOf({}), newTally()];
		const overTime = () => [dayCap(100, day)];
		const first = budgetOf(10, { account, overTime });
		lose(first, 10, 'k');
		const next = budgetOf(10, { account, overTime });
		expect(charge(next, 10, 'k', 10)).toBe(10);
		// The API may have charged it when the first run sent it: this run tells it as held back.
		expect([first.run.reserved, next.run.charged, next.run.reserved]).toEqual([10, 0, 10]);
		expect([day.charged, day.reserved]).toEqual([10, 0]);
	});
});

describe('held units: the account’s, pointing to the settled call that holds them', () => {
	it('a unit held at a level is free at that level or below, and needs no room', () => {
		const [account, run] = [accountOf({}), newTally()];
		const first = budgetOf(2, { account, run });
		charge(first, 2, 'k', 2);
		first.hold('ct_a', 2, 'k');
		first.hold('ct_b', 1, 'k');
		first.hold('ct_b', 0, 'k');
		const retry = budgetOf(2, { account, run });
		expect(retry.headroom).toBe(0);
		expect([retry.priceOf('ct_a', 2, 2), retry.priceOf('ct_a', 1, 1)]).toEqual([0, 0]);
		expect([retry.priceOf('ct_b', 1, 1), retry.priceOf('ct_b', 2, 2)]).toEqual([0, 2]);
		expect(retry.priceOf('ct_new', 1, 1)).toBe(1);
		expect(retry.reserve(0, 'held again')).toBeDefined();
	});

	it('heldCallOf gives the settled call holding a unit at the rank asked; none, no price of 0', () => {
		const budget = budgetOf(10);
		const call = sent('k', ['ct_a', 'ct_b']);
		budget.settle(budget.reserve(2, 'k')!, call, { credits_charged: 2 }, false);
		budget.hold('ct_a', 1, 'k');
		budget.hold('ct_b', 2, 'k');
		budget.hold('ct_c', 2, 'never settled');
		expect(budget.heldCallOf('ct_a', 1)).toEqual({ ...call, charge: 2 });
		expect(budget.heldCallOf('ct_a', 2)).toBeUndefined();
		expect(budget.heldCallOf('ct_b', 2)?.key).toBe('k');
		expect([budget.heldCallOf('ct_c', 1), budget.priceOf('ct_c', 1, 1)]).toEqual([undefined, 1]);
	});

	it('a contact held at premium that comes back in a basic answer stays held at premium', () => {
		const budget = budgetOf(10);
		charge(budget, 2, 'premium', 2);
		budget.hold('ct_a', 2, 'premium');
		charge(budget, 1, 'basic', 0);
		budget.hold('ct_a', 1, 'basic');
		expect([budget.heldCallOf('ct_a', 2)?.key, budget.priceOf('ct_a', 2, 2)]).toEqual([
			'premium',
			0,
		]);
	});

	it('a unit at rank 0 (not unlocked) is not held: it takes no place among the held', () => {
		const budget = budgetOf(10);
		charge(budget, 1, 'k', 1);
		budget.hold('ct_a', 0, 'k');
		expect([budget.account.held, budget.account.sizes.held]).toEqual([{}, 0]);
	});

	it('two accounts never share held units or calls; one credential is one account, named by a hash', () => {
		const flow = {};
		const credential = (keyHash: string, baseUrl = 'https://api.example') => ({ baseUrl, keyHash });
		const [a, b] = [accountOf(flow, credential('key a')), accountOf(flow, credential('key b'))];
		expect(accountOf(flow, credential('key a'))).toBe(a);
		expect([b, accountOf(flow, credential('key a', 'https://other.example'))]).not.toContain(a);
		const names = Object.keys((flow as { contactDataAccounts: object }).contactDataAccounts);
		expect(names.join()).toMatch(/^[0-9a-f]{16}(,[0-9a-f]{16}){2}$/);
		// Issue 37 finding 2: tool A unlocks 10 contacts, tool B (another key) must price them in full.
		const execution = newTally();
		const toolA = budgetOf(10, { account: a, execution });
		charge(toolA, 10, 'k', 10);
		toolA.hold('ct_a', 1, 'k');
		lose(toolA, 0, 'lost');
		const toolB = budgetOf(10, { account: b, execution });
		expect(toolB.priceOf('ct_a', 1, 1)).toBe(1);
		expect([toolB.sentBefore('k'), toolB.sentBefore('lost')]).toEqual([false, false]);
		expect(toolB.reserve(1, 'kb')).toBeUndefined();
	});
});

describe('the account’s bounds: past one, the oldest 1,000 are forgotten (which only counts more)', () => {
	it('remembers at most 100,000 held units', () => {
		const budget = budgetOf(1);
		charge(budget, 0, 'k', 0);
		for (let id = 0; id <= 100_000; id++) budget.hold(`ct_${id}`, 1, 'k');
		expect(Object.keys(budget.account.held)).toHaveLength(99_001);
		expect([budget.priceOf('ct_999', 1, 1), budget.priceOf('ct_1000', 1, 1)]).toEqual([1, 0]);
		const { sizes } = JSON.parse(JSON.stringify(budget.account)) as Account;
		expect(sizes).toEqual({ lost: 0, settled: 1, held: 99_001, leftOut: 0 });
	});

	it('remembers at most 10,000 settled calls: a forgotten one counts again, its units cost again', () => {
		const [account, day] = [accountOf({}), newTally()];
		const overTime = () => [dayCap(1e9, day)];
		const budget = budgetOf(1e9, { account, overTime });
		for (let call = 0; call <= 10_000; call++) charge(budget, 1, `k${call}`, 1);
		budget.hold('ct_a', 1, 'k998');
		budget.hold('ct_b', 1, 'k1000');
		expect(Object.keys(account.settled)).toHaveLength(9_001);
		expect([account.settled.k999, account.settled.k1000?.charge]).toEqual([undefined, 1]);
		expect([budget.priceOf('ct_a', 1, 1), budget.priceOf('ct_b', 1, 1)]).toEqual([1, 0]);
		const later = budgetOf(1e9, { account, overTime });
		charge(later, 1, 'k999', 1, true);
		charge(later, 1, 'k1000', 1, true);
		expect([day.charged, later.run.charged]).toEqual([10_002, 1]);
		// Sent again in a new call, the unit is held by that one (the API charges it nothing).
		charge(later, 1, 'again', 0);
		later.hold('ct_a', 1, 'again');
		expect([later.heldCallOf('ct_a', 1)?.key, later.priceOf('ct_a', 1, 1)]).toEqual(['again', 0]);
	});

	it('remembers at most 1,000 lost calls; a forgotten one’s worst case stays held, its key sent before', () => {
		const budget = budgetOf(1e9);
		for (let call = 0; call <= 1_000; call++) lose(budget, 1, `k${call}`);
		expect([Object.keys(budget.account.lost), budget.account.sizes.lost]).toEqual([['k1000'], 1]);
		// The run's later try takes it over: a refusal then says nothing of the first send.
		const retry = budgetOf(1e9, { account: budget.account, run: budget.run });
		expect(retry.reserve(1, 'k0')).toMatchObject({ sentBefore: true, credits: 1 });
		expect([budget.sentBefore('k1'), budget.run.reserved]).toEqual([true, 1_001]);
	});

	/** Loses calls `k<from>` to `k<to - 1>`, each of 1 credit. */
	const loseAll = (budget: CreditBudget, from: number, to: number) => {
		for (let call = from; call < to; call++) lose(budget, 1, `k${call}`);
	};

	it('keeps exactly 1,000 lost calls: the bound is passed only by the next', () => {
		const budget = budgetOf(1e9);
		loseAll(budget, 0, 1_000);
		expect([Object.keys(budget.account.lost).length, budget.account.sizes.lost]).toEqual([
			1_000, 1_000,
		]);
		expect(budget.account.lost.k0).toMatchObject({ key: 'k0', credits: 1 });
	});

	it('a call lost again under its key counts once toward the bound', () => {
		const budget = budgetOf(1e9);
		lose(budget, 1, 'k0');
		lose(budget, 1, 'k0'); // sent again, lost again: the same call
		loseAll(budget, 1, 1_000);
		expect([Object.keys(budget.account.lost).length, budget.account.sizes.lost]).toEqual([
			1_000, 1_000,
		]);
		expect(budget.account.lost.k0).toMatchObject({ key: 'k0', credits: 1 });
	});

	it('a lost call settled makes room: 1,000 lost after it are all kept', () => {
		const budget = budgetOf(1e9);
		loseAll(budget, 0, 1_000);
		expect(charge(budget, 1, 'k0', 1, true)).toBe(1);
		expect(budget.account.sizes.lost).toBe(999);
		lose(budget, 1, 'k1000');
		expect([Object.keys(budget.account.lost).length, budget.account.sizes.lost]).toEqual([
			1_000, 1_000,
		]);
		expect(budget.account.lost.k1).toMatchObject({ key: 'k1', credits: 1 });
	});
});

describe('caps over time (a fake clock)', () => {
	it('a day’s tally is the node’s for that UTC day: the same all day, fresh the next', () => {
		const store = new Map<string, Tally>();
		const morning = tallyOf('wf|node', { now: NOON - 11 * HOUR }, store);
		morning.charged = 4;
		expect(tallyOf('wf|node', { now: NOON + 11 * HOUR }, store)).toBe(morning);
		expect(tallyOf('wf|node', { now: NOON + DAY }, store).charged).toBe(0);
		expect(tallyOf('wf|other', { now: NOON }, store).charged).toBe(0);
		expect(tallyOf('wf|node', { session: 's1' }, store)).not.toBe(
			tallyOf('wf|node', { session: 's2' }, store),
		);
	});

	it('keeps at most 10,000 tallies, dropping the oldest session: sessions named like a day’s key never drop the day’s', () => {
		const [store, clock] = [new Map<string, Tally>(), { now: NOON }];
		charge(budgetOf(1000, { overTime: dayCapOn(100, clock, store) }), 100, 'k1', 100);
		const oldest = tallyOf('wf|n', { session: 'first' }, store);
		for (let session = 0; session < 10_050; session++)
			tallyOf('wf|n', { session: `s${session}|day|9999-12-31` }, store);
		expect(store.size).toBe(10_000);
		expect(tallyOf('wf|n', { session: 'first' }, store)).not.toBe(oldest);
		clock.now += 1000;
		expect(budgetOf(1000, { overTime: dayCapOn(100, clock, store) }).headroom).toBe(0);
	});

	it('a clock set back across midnight does not open a fresh day: the latest day’s tally counts', () => {
		const store = new Map<string, Tally>();
		tallyOf('wf|n', { now: NOON }, store).charged = 100;
		const next = tallyOf('wf|n', { now: NOON + DAY }, store);
		next.charged = 100;
		const back = { now: NOON + DAY - 13 * HOUR };
		expect(tallyOf('wf|n', back, store)).toBe(next);
		expect(budgetOf(1000, { overTime: dayCapOn(100, back, store) }).headroom).toBe(0);
	});

	it('a day over is dropped from the store; sessions stay', () => {
		const store = new Map<string, Tally>();
		tallyOf('wf|n', { now: NOON }, store);
		tallyOf('wf|n', { session: 's1' }, store);
		tallyOf('wf|n', { now: NOON + DAY }, store);
		expect([...store.keys()].sort()).toEqual(['day|2026-11-26|wf|n', 'session|wf|n|s1']);
	});

	it('a run across midnight counts each call in the day it is reserved (issue 37, finding 7)', () => {
		const [store, clock] = [new Map<string, Tally>(), { now: NOON + 12 * HOUR - 500 }];
		const budget = budgetOf(1000, { overTime: dayCapOn(300, clock, store) });
		const late = budget.reserve(200, 'late')!;
		const yesterday = budget.caps[1].tally;
		clock.now += 1000;
		expect(charge(budget, 300, 'after', 300)).toBe(300);
		settle(budget, late, 200);
		const today = budget.caps[1].tally;
		expect([yesterday.charged, today.charged, budget.run.charged]).toEqual([200, 300, 500]);
		// Its answer read after midnight may be a retry's, sent today: today holds it back too.
		expect(today.reserved).toBe(200);
		expect(budgetOf(1000, { overTime: dayCapOn(300, clock, store) }).headroom).toBe(0);
	});

	it('a lost call sent again after midnight counts in the new day; the run takes its worst case over', () => {
		const [account, run, clock] = [accountOf({}), newTally(), { now: NOON }];
		const overTime = dayCapOn(100, clock);
		lose(budgetOf(1000, { account, run, overTime }), 50, 'lost');
		clock.now += DAY;
		const retry = budgetOf(1000, { account, run, overTime });
		expect(charge(retry, 50, 'lost', 50)).toBe(50);
		expect(retry.caps[1].tally).toMatchObject({ charged: 50, reserved: 0 });
		expect([retry.headroom, run.charged, run.reserved]).toEqual([50, 50, 0]);
	});

	it('a lost call replayed the same day counts in that day', () => {
		const [account, run, clock] = [accountOf({}), newTally(), { now: NOON }];
		const overTime = dayCapOn(100, clock);
		lose(budgetOf(1000, { account, run, overTime }), 50, 'lost');
		clock.now += HOUR;
		const retry = budgetOf(1000, { account, run, overTime });
		expect(charge(retry, 50, 'lost', 40, true)).toBe(40);
		expect(retry.caps[1].tally).toMatchObject({ charged: 40, reserved: 0 });
		expect(retry.headroom).toBe(60);
	});

	it('a lost call replayed after midnight was carried out the day it was sent: the new day counts none of it', () => {
		const [account, run, clock] = [accountOf({}), newTally(), { now: NOON }];
		const overTime = dayCapOn(100, clock);
		lose(budgetOf(1000, { account, run, overTime }), 50, 'lost');
		clock.now += DAY;
		const retry = budgetOf(1000, { account, run, overTime });
		expect(charge(retry, 50, 'lost', 50, true)).toBe(50);
		expect(retry.caps[1].tally).toMatchObject({ charged: 0, reserved: 0 });
		expect([retry.headroom, run.charged, run.reserved]).toEqual([100, 50, 0]);
	});

	it('a lost call is not sent again into a new day whose cap has no room for its worst case', () => {
		// Its worst case was held in the day before, not this one: sent now, the API may charge it today.
		const [account, clock] = [accountOf({}), { now: NOON }];
		const overTime = dayCapOn(100, clock);
		lose(budgetOf(1000, { account, overTime }), 100, 'lost');
		clock.now += DAY;
		charge(budgetOf(1000, { overTime }), 100, 'today', 100);
		expect(budgetOf(1000, { account, overTime }).reserve(100, 'lost')).toBeUndefined();
	});

	it.each([
		[5, 100, 'Max Credits'],
		[10, 10, 'Max Credits'],
		[10, 4, 'Max Credits per Day'],
	])(
		'Max Credits %p beside a day cap of %p: the cap named is %p (Max Credits on a tie)',
		(max, perDay, named) => {
			const budget = budgetOf(max, { overTime: () => [dayCap(perDay, newTally())] });
			expect(budget.tightest.label).toBe(named);
		},
	);

	it('Retry On Fail after midnight: the run holds a lost call’s worst case, the new day must still have room for it', () => {
		const [account, run, clock] = [accountOf({}), newTally(), { now: NOON }];
		const overTime = dayCapOn(100, clock);
		lose(budgetOf(1000, { account, run, overTime }), 100, 'lost');
		clock.now += DAY;
		charge(budgetOf(1000, { overTime }), 100, 'today', 100);
		expect(budgetOf(1000, { account, run, overTime }).reserve(100, 'lost')).toBeUndefined();
	});

	it('runs sharing a day cap never pass it together; the tightest cap is the one named', () => {
		const day = tallyOf('wf|parallel', { now: NOON }, new Map());
		const overTime = () => [dayCap(25, day)];
		const runs = Array.from({ length: 10 }, () => budgetOf(10, { overTime }));
		// What Fits: up to 10 contacts at 1 credit each.
		const reserved = runs.map((b, at) => b.reserve(Math.min(10, b.headroom), `k${at}`)!);
		expect(reserved.map(({ credits }) => credits)).toEqual([10, 10, 5, 0, 0, 0, 0, 0, 0, 0]);
		expect(runs[2].tightest.label).toBe('Max Credits per Day');
		reserved.forEach((reservation, at) => settle(runs[at], reservation, reservation.credits));
		expect(day).toEqual({ charged: 25, reserved: 0, day: '2026-11-25' });
		expect(budgetOf(10, { overTime }).headroom).toBe(0);
	});
});
