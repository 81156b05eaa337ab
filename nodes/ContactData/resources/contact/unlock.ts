/** Contact → Unlock: every item's contact ids unlocked together, each once, within the budget. */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	chargingCallOf,
	notAnswered,
	sendCharging,
	type ChargingCall,
} from '../../shared/budget/chargingCall';
import * as charging from '../../shared/budget/chargingRun';
import * as contract from '../../shared/client/contract';
import { entryNotFound, isRefusal } from '../../shared/client/failures';
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
			'All input items are unlocked together: IDs are deduplicated and sent 100 per call, so a contact is never paid for twice.',
		name: 'unlockNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor,
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const run = charging.chargingRunOf(this, WHEN_MAX_CREDITS_REACHED);
	// 1. Check every item's ids before anything is sent; an id an item repeats is one contact.
	const idsOf = contactIdsReader(this, items);
	const { checked, refused } = await checkEveryItem(this, items, (itemIndex) =>
		unique(idsOf(itemIndex)).map((id) => ({ itemIndex, id })),
	);
	const u: Unlocking = planOf(this, items, checked.flat(), run);
	// 2. Stop Before Spending: a run that could go over sends nothing.
	const mayCharge = forecastOf(u);
	const what = `unlocking ${plural(mayCharge / run.cost, 'contact')} at ${run.level} level`;
	const refusal = charging.stopBeforeSpending(this, run, what, mayCharge);
	// 3. Calls in order, each what the budget still holds.
	const notSent = u.queue.slice(refusal ? 0 : await sendWithinBudget(u));
	// 4. What the budget did not reach: an error after a refused balance or under Stop Before Spending.
	const reason =
		refusal ?? u.refusedBalance ?? charging.budgetReached(this, run, notSent.length, 'contact');
	for (const id of notSent) u.outcomes.set(id, reason ?? charging.skippedForBudget({ id }));
	const records = [...u.outcomes.values()].filter(
		(json) => !(json instanceof Error) && charging.isContactRecord(json),
	);
	const skipped = u.wanted.filter(u.isSkipped).length;
	return charging.finishRun(this, run, outcomesOf(u, items, refused), {
		done: `Unlocked ${plural(records.length, 'unique contact')} (${run.level}) in ${plural(u.calls, 'call')}`,
		notSent: refusal || u.refusedBalance ? 0 : notSent.length,
		unit: 'contact',
		also: skipped ? `; ${skipped} already unlocked and skipped` : '',
	});
}

/** One contact id wanted by one input item. */
type Wanted = { itemIndex: number; id: string };

/** A run of Unlock, planned before anything is sent; a refused balance (402) ends its calls. */
type Unlocking = ReturnType<typeof planOf> & { refusedBalance?: Error };

/** The checked ids as what to send: Skip Already Unlocked applied, each id once, held ones first. */
function planOf(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	wanted: Wanted[],
	run: charging.ChargingRun,
) {
	const { rank } = run;
	const option = 'options.skipAlreadyUnlocked';
	const skipHeld = parameters.booleanParameter(context, option, 'Skip Already Unlocked', 0);
	// The input's word decides Skip Already Unlocked, never the budget; a preview is held at basic.
	const held = ({ itemIndex, id }: Wanted) => {
		const json = items[itemIndex].json;
		return (
			json.id === id && json.unlocked === true && Math.max(1, charging.rankOf(json.level)) >= rank
		);
	};
	// Left out of the forecast, though each call reserves them.
	const shown = new Set(wanted.filter(held).map(({ id }) => id));
	const isSkipped = (entry: Wanted) => skipHeld && held(entry);
	const toSend = unique(wanted.filter((entry) => !isSkipped(entry)).map(({ id }) => id));
	const queue = [...toSend.filter((id) => shown.has(id)), ...toSend.filter((id) => !shown.has(id))];
	// The item named in the errors of an id's call.
	const firstItemOf = new Map<string, number>();
	for (const { id, itemIndex } of wanted) if (!firstItemOf.has(id)) firstItemOf.set(id, itemIndex);
	// By contact id: its answer entry, its pass-through, or its call's error.
	const outcomes = new Map<string, IDataObject | Error>();
	return { context, run, wanted, isSkipped, queue, shown, firstItemOf, outcomes, calls: 0 };
}

/**
 * The call from `queue[from]`, formed the same way every time so a repeat makes the same calls with
 * the same keys: a lost call as it was sent, else up to 100 ids while their prices fit `room`.
 */
function nextCall(u: Unlocking, from: number, room: number) {
	const { run, queue } = u;
	const priceOf = (id: string) => run.budget.priceOf(id, run.rank, run.cost);
	const lost = run.budget.lostCallFrom(queue[from]);
	// By its key too: at another level the same ids are another call.
	if (lost?.every((id, at) => queue[from + at] === id))
		if (run.budget.sentBefore(requestOf(u, lost).key))
			return { ids: lost, credits: lost.reduce((sum, id) => sum + priceOf(id), 0), lost };
	let credits = 0;
	let to = from;
	for (; to < queue.length && to - from < contract.LIMITS.idsPerUnlock; to++) {
		const price = priceOf(queue[to]);
		if (credits + price > room) break;
		credits += price;
	}
	return { ids: queue.slice(from, to), credits, lost: undefined };
}

/** What the calls may charge: lost calls taken over and contacts shown as held left out. */
function forecastOf(u: Unlocking): number {
	let credits = 0;
	for (let from = 0; from < u.queue.length; ) {
		const { ids, lost } = nextCall(u, from, Infinity);
		for (const id of lost ? [] : ids)
			if (!u.shown.has(id)) credits += u.run.budget.priceOf(id, u.run.rank, u.run.cost);
		from += ids.length;
	}
	return credits;
}

const FIELD_NAMES = { ids: 'Contact IDs', level: 'Level' };

function requestOf({ context, run }: Unlocking, ids: string[]) {
	const { unlockRequestSchema, PATHS } = contract;
	const asked = { ids, level: run.level };
	const body: IDataObject = checkBody(context, unlockRequestSchema, asked, 0, FIELD_NAMES);
	return { path: PATHS.unlock, body, key: idempotencyKeyFor(context, PATHS.unlock, body) };
}

/** A call with its worst case reserved under its key; undefined when it does not fit. */
function unlockCall(u: Unlocking, ids: string[], credits: number, itemIndex = 0) {
	return chargingCallOf(u.run.budget, { ...requestOf(u, ids), credits, itemIndex, ids });
}

/** Sends the queue in order within the budget and replays each lost answer once; how many were sent. */
async function sendWithinBudget(u: Unlocking): Promise<number> {
	const lost: ChargingCall[] = [];
	let next = 0;
	let stopped = true;
	try {
		while (next < u.queue.length && !u.refusedBalance) {
			const { ids, credits } = nextCall(u, next, u.run.budget.headroom);
			const call = ids.length > 0 && unlockCall(u, ids, credits, u.firstItemOf.get(ids[0]));
			if (call) {
				next += ids.length;
				await send(u, call, lost);
			} else if (lost.length > 0) {
				// A lost answer holds its worst case: its real charge may leave room for more.
				for (const again of lost.splice(0)) await send(u, again);
			} else break;
		}
		stopped = false;
	} finally {
		// The node stops: a try of Retry On Fail takes the lost calls over. (A catch would have to
		// throw the raw error on, which n8n's lint refuses.)
		if (stopped) for (const call of lost) u.run.budget.keepLost(call.reservation, call.ids);
	}
	for (const again of lost) await send(u, again);
	return next;
}

/**
 * Sends a call and sorts out what came of it by id. A lost answer is replayed once (`lost` collects
 * it), then kept lost; any other failure stops the node unless continueOnFail.
 */
async function send(u: Unlocking, call: ChargingCall, lost?: ChargingCall[]): Promise<void> {
	const { context, run } = u;
	// After a charge above its worst case no charging call is sent, a replay neither.
	if (call.sends > 0 && run.budget.overcharge !== undefined)
		return run.budget.keepLost(call.reservation, call.ids);
	u.calls++;
	const sent = await sendCharging(context, run.budget, call, contract.unlockAnswerSchema);
	if ('answer' in sent) return takeAnswer(u, call, sent);
	for (const id of call.ids!) u.outcomes.set(id, sent.failure);
	if (sent.lost && lost) lost.push(call);
	else if (sent.lost) run.budget.keepLost(call.reservation, call.ids);
	else if (!context.continueOnFail()) throw sent.failure;
	else if (isRefusal(sent.failure, 'insufficient_credits')) u.refusedBalance = sent.failure;
}

/**
 * Each entry holds its contact at the level it came back with. Ids left out are asked for again
 * once with what the charge leaves of the worst case; left out again, they may have been charged.
 */
async function takeAnswer(
	u: Unlocking,
	call: ChargingCall,
	{ answer, charged }: { answer: contract.UnlockAnswer; charged?: number },
): Promise<void> {
	for (const entry of answer.contacts as IDataObject[]) {
		u.outcomes.set(String(entry.id), entry);
		if (entry.error === undefined)
			u.run.budget.hold(String(entry.id), charging.rankOf(entry.level));
	}
	const answered = new Set(answer.contacts.map(({ id }) => String(id)));
	const missing = call.ids!.filter((id) => !answered.has(id));
	if (missing.length === 0) return;
	const left = charged === undefined ? Infinity : call.reservation.credits - charged;
	const credits = Math.min(missing.length * u.run.cost, left);
	const again = !call.askedAgain && unlockCall(u, missing, credits, call.itemIndex);
	if (again) return send(u, { ...again, askedAgain: true });
	u.run.budget.reserve(credits); // stays held: they may have been charged
	const failure = notAnswered(u.context, call, missing);
	for (const id of missing) u.outcomes.set(id, failure);
}

/** By input item in input order: its error, or one outcome per id it wants. */
function outcomesOf(u: Unlocking, items: INodeExecutionData[], refused: Map<number, Error>) {
	const output: charging.Outcome[] = [];
	let next = 0; // `wanted` is in input order: one pass over it
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const error = refused.get(itemIndex);
		if (error) output.push({ itemIndex, outcome: error });
		for (; u.wanted[next]?.itemIndex === itemIndex; next++) {
			const { id } = u.wanted[next];
			const json = items[itemIndex].json;
			let outcome = u.isSkipped(u.wanted[next])
				? { ...json, unlock_skipped: 'already_unlocked' }
				: u.outcomes.get(id);
			if (outcome === undefined) continue;
			if (!(outcome instanceof Error) && outcome.error)
				outcome = entryNotFound(u.context, id, outcome.error as IDataObject, itemIndex);
			else if (!(outcome instanceof Error) && outcome.unlock_skipped === 'budget' && json.id === id)
				outcome = charging.skippedForBudget(json);
			output.push({ itemIndex, outcome, id });
		}
	}
	return output;
}
