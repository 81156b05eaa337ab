/**
 * The charging loop's lookup (planOf) with plain values: lost calls the account ledger forgot past
 * its bound, whose worst case the run's tally still holds under their key, are found by cutting the
 * queue as it was sent, and sent again under that key. No sandbox, no n8n: a run that loses more
 * than 1,000 calls takes half a minute in the engine (budget.findings42's defect 4).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { accountOf } from '../../../../../nodes/ContactData/shared/budget/account';
import type { Charging } from '../../../../../nodes/ContactData/shared/budget/chargingOperation';
import { planOf } from '../../../../../nodes/ContactData/shared/budget/chargingPlan';
import type { ChargingRun } from '../../../../../nodes/ContactData/shared/budget/chargingRun';
import {
	CreditBudget,
	newTally,
	type ChargeReport,
} from '../../../../../nodes/ContactData/shared/budget/ledger';

const ids = (count: number, from = 0) =>
	Array.from({ length: count }, (_, at) => `ct_${String(from + at).padStart(6, '0')}`);

/** A charging run of node `n1` at basic level, 3 ids a call, keyed by its body. */
function chargingOf(run = newTally()): Charging<ChargeReport> {
	const account = accountOf({});
	const budget = new CreditBudget(1_000, run, account, () => [
		{ label: 'Max Credits', max: 1_000, tally: run },
	]);
	const chargingRun: ChargingRun = {
		...{ level: 'basic', rank: 1, cost: 1, budget },
		...{ policy: 'stop', whatFits: 'Unlock What Fits' },
	};
	// The loop asks its context only which node it runs in.
	const context = { getNode: () => ({ id: 'n1' }) } as unknown as IExecuteFunctions;
	return {
		context,
		run: chargingRun,
		op: {
			path: '/v1/unlock',
			schema: undefined as never,
			unitsPerCall: 3,
			contacts: true,
			bodyOf: (units: string[], level: string): IDataObject => ({ ids: units, level }),
			keyOf: (body: IDataObject) => JSON.stringify(body),
			read: () => new Map(),
			itemOf: () => 0,
		},
		outcomes: new Map(),
	};
}

const keyOf = (units: string[]) => JSON.stringify({ ids: units, level: 'basic' });

it('a lost call the account forgot is found by the queue cut as it was sent: sent again under its key', () => {
	const run = newTally();
	// Calls [0..2], [3..5], [6] were sent; [3..5]'s answer was lost and the account forgot it.
	run.lostWorstCases = { [keyOf(ids(3, 3))]: 3 };
	run.reserved = 3;
	const plan = planOf(chargingOf(run), ids(7));
	expect(plan.again.map(({ sent, wants, credits }) => ({ key: sent.key, wants, credits }))).toEqual(
		[{ key: keyOf(ids(3, 3)), wants: ids(3, 3), credits: 3 }],
	);
	expect(plan.queue).toEqual([...ids(3), ids(1, 6)[0]]);
});

it('with no lost worst case held, every unit is queued for new calls', () => {
	const plan = planOf(chargingOf(), ids(7));
	expect(plan.again).toEqual([]);
	expect(plan.queue).toEqual(ids(7));
});

it('after the known calls leave the queue, the rest is cut as it was sent', () => {
	const charging = chargingOf();
	const { account, run } = charging.run.budget;
	// [0..2] lost and still known to the account; [3..5] lost and forgotten.
	const known = { key: keyOf(ids(3)), units: ids(3), level: 'basic' as const, node: 'n1' };
	account.lost[known.key] = { ...known, credits: 3 };
	account.sizes.lost = 1;
	run.lostWorstCases = { [known.key]: 3, [keyOf(ids(3, 3))]: 3 };
	run.reserved = 6;
	const plan = planOf(charging, ids(8));
	expect(plan.again.map(({ sent }) => sent.key)).toEqual([known.key, keyOf(ids(3, 3))]);
	expect(plan.queue).toEqual(ids(2, 6));
});
