/** Contact → Unlock: every item's contact ids unlocked together, each once, within the budget. */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import * as loop from '../../shared/budget/chargingLoop';
import type * as charging from '../../shared/budget/chargingOperation';
import { planOf } from '../../shared/budget/chargingPlan';
import { type ChargingRun, chargingRunOf, rankOf } from '../../shared/budget/chargingRun';
import {
	finishRun,
	isContactRecord,
	type Outcome,
	skippedForBudget,
} from '../../shared/budget/runOutput';
import { budgetReached, stopBeforeSpending } from '../../shared/budget/runTexts';
import * as contract from '../../shared/client/contract';
import { entryNotFound } from '../../shared/client/failures';
import { idempotencyKeyFor } from '../../shared/client/idempotency';
import { checkEveryItem } from '../../shared/items/items';
import { contactIdsReader } from '../../shared/items/perItemReaders';
import { SIMPLIFY_PARAMETERS } from '../../shared/items/simplify';
import * as parameters from '../../shared/parameters/descriptions';
import { CONTACT_IDS_PARAMETERS } from '../../shared/parameters/perItemParameters';
import { checkBody } from '../../shared/parameters/values';
import { plural, unique } from '../../shared/parameters/utilities';
import { CHARGING_OPTIONS } from './chargingOptions';

const showFor = { show: { resource: ['contact'], operation: ['unlock'] } };

const WHEN_MAX_CREDITS_REACHED = parameters.whenMaxCreditsReachedParameter(showFor, {
	name: 'Unlock What Fits',
	description:
		'Unlock contacts in input order up to Max Credits; the rest pass through unsent, marked "unlock_skipped": "budget"',
});

export const description: INodeProperties[] = [
	...CONTACT_IDS_PARAMETERS,
	parameters.LEVEL_PARAMETER,
	parameters.MAX_CREDITS_PARAMETER,
	WHEN_MAX_CREDITS_REACHED,
	...SIMPLIFY_PARAMETERS,
	CHARGING_OPTIONS,
	{
		displayName:
			'All input items are unlocked together, so a contact that appears in several items is paid for once.',
		name: 'unlockNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor,
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const run = await chargingRunOf(this, WHEN_MAX_CREDITS_REACHED);
	// 1. Check every item's ids before anything is sent; an id an item repeats is one contact.
	const idsOf = contactIdsReader(this, items);
	const { checked, refused } = await checkEveryItem(this, items, (itemIndex) =>
		unique(idsOf(itemIndex)).map((id) => ({ itemIndex, id })),
	);
	const u = unlockingOf(this, items, checked.flat(), run);
	const plan = planOf(u.charging, u.toSend);
	// 2. Stop Before Spending: a run that could go over sends nothing.
	const mayCharge = plan.queue.filter((id) => !u.shown.has(id)).length * run.cost;
	const what = `unlocking ${plural(mayCharge / run.cost, 'contact')} at ${run.level} level`;
	const refusal = stopBeforeSpending(this, run, what, mayCharge);
	// 3. Calls in order, each what the budget still holds.
	const notSent = refusal ? u.toSend : await loop.chargeAll(u.charging, plan);
	// 4. What the budget did not reach: an error after a failure that ended the calls, or under
	// Stop Before Spending.
	const { stoppedBy, outcomes } = u.charging;
	const reason = refusal ?? stoppedBy ?? budgetReached(this, run, notSent.length, 'contact');
	for (const id of notSent) outcomes.set(id, reason ?? skippedForBudget({ id }));
	const records = [...outcomes.values()].filter(
		(json) => !(json instanceof Error) && isContactRecord(json),
	);
	const skipped = u.wanted.filter(u.isSkipped).length;
	return finishRun(this, run, outcomesOf(u, items, refused), {
		done: `Unlocked ${plural(records.length, 'unique contact')} (${run.level})`,
		notSent: refusal || stoppedBy ? 0 : notSent.length,
		unit: 'contact',
		also: skipped ? `; ${skipped} already unlocked and skipped` : '',
	});
}

/** One contact id wanted by one input item. */
type Wanted = { itemIndex: number; id: string };

type Unlocking = ReturnType<typeof unlockingOf>;

/** The checked ids as what to send: Skip Already Unlocked applied, each id once, held ones first. */
function unlockingOf(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	wanted: Wanted[],
	run: ChargingRun,
) {
	const option = 'options.skipAlreadyUnlocked';
	const skipHeld = parameters.booleanParameter(context, option, 'Skip Already Unlocked', 0);
	// The input's word decides Skip Already Unlocked, never the budget; a preview is held at basic.
	const saysHeld = ({ itemIndex, id }: Wanted) => {
		const json = items[itemIndex].json;
		return json.id === id && json.unlocked === true && Math.max(1, rankOf(json.level)) >= run.rank;
	};
	// Left out of the forecast, though each call reserves them.
	const shown = new Set(wanted.filter(saysHeld).map(({ id }) => id));
	const isSkipped = (entry: Wanted) => skipHeld && saysHeld(entry);
	const unsent = unique(wanted.filter((entry) => !isSkipped(entry)).map(({ id }) => id));
	const toSend = [
		...unsent.filter((id) => shown.has(id)),
		...unsent.filter((id) => !shown.has(id)),
	];
	// The item named first in the errors of an id's call.
	const firstItemOf = new Map<string, number>();
	for (const { id, itemIndex } of wanted) if (!firstItemOf.has(id)) firstItemOf.set(id, itemIndex);
	const op = unlockOperation(context, firstItemOf);
	const outcomes = new Map<string, IDataObject | Error>();
	const unlocking: charging.Charging<contract.UnlockAnswer> = { context, run, op, outcomes };
	return { context, wanted, isSkipped, toSend, shown, charging: unlocking };
}

const FIELD_NAMES = { ids: 'Contact IDs', level: 'Level' };

/** Unlock's request for a set of contact ids, and its answer read by id. */
function unlockOperation(
	context: IExecuteFunctions,
	firstItemOf: Map<string, number>,
): charging.ChargingOperation<contract.UnlockAnswer> {
	const { unlockRequestSchema, unlockAnswerSchema, PATHS, LIMITS } = contract;
	return {
		path: PATHS.unlock,
		schema: unlockAnswerSchema,
		unitsPerCall: LIMITS.idsPerUnlock,
		contacts: true,
		bodyOf: (ids, level) => checkBody(context, unlockRequestSchema, { ids, level }, 0, FIELD_NAMES),
		keyOf: (body) => idempotencyKeyFor(context, PATHS.unlock, body),
		read: (answer) => new Map((answer.contacts as IDataObject[]).map(answeredEntry)),
		itemOf: (id) => firstItemOf.get(id) ?? 0,
	};

	/** An entry by its id: a record held at its level, or an id the API does not know. */
	function answeredEntry(entry: IDataObject): [string, charging.AnsweredUnit] {
		const id = String(entry.id);
		if (entry.error === undefined) return [id, { outcome: entry, rank: rankOf(entry.level) }];
		const failure = entryNotFound(
			context,
			id,
			entry.error as IDataObject,
			firstItemOf.get(id) ?? 0,
		);
		return [id, { outcome: entry, rank: 0, failure }];
	}
}

/** By input item in input order: its error, or one outcome per id it wants. */
function outcomesOf(u: Unlocking, items: INodeExecutionData[], refused: Map<number, Error>) {
	const output: Outcome[] = [];
	let next = 0; // `wanted` is in input order: one pass over it
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const error = refused.get(itemIndex);
		if (error) output.push({ itemIndex, outcome: error });
		for (; u.wanted[next]?.itemIndex === itemIndex; next++) {
			const { id } = u.wanted[next];
			const json = items[itemIndex].json;
			let outcome = u.isSkipped(u.wanted[next])
				? { ...json, unlock_skipped: 'already_unlocked' }
				: u.charging.outcomes.get(id);
			if (outcome === undefined) continue;
			if (!(outcome instanceof Error) && outcome.error)
				outcome = entryNotFound(u.context, id, outcome.error as IDataObject, itemIndex);
			else if (!(outcome instanceof Error) && outcome.unlock_skipped === 'budget' && json.id === id)
				outcome = skippedForBudget(json);
			output.push({ itemIndex, outcome, id });
		}
	}
	return output;
}
