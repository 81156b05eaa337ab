/**
 * Contact → Unlock, top-down: read and check every item's ids, plan what to send (each id once),
 * Stop Before Spending, send calls of up to 100 ids within the budget, replay lost answers, then
 * one output item per wanted id in input order. The credit rules are ../../shared/budget.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	LIMITS,
	PATHS,
	UNLOCK_LEVELS,
	unlockAnswerSchema,
	unlockRequestSchema,
	type UnlockAnswer,
	type UnlockLevel,
} from '../../shared/client/contract';
import { entryNotFound, failureOf, isRefusal } from '../../shared/client/failures';
import { ChargingCalls, type Settled } from '../../shared/budget/chargingCalls';
import {
	budgetReached,
	chargingRunOf,
	finishRun,
	skippedForBudget,
	stopBeforeSpending,
	type ChargingRun,
} from '../../shared/budget/chargingRun';
import { contactIdsReader } from '../../shared/items/perItemReaders';
import { asNodeError, checkEveryItem, errorItem } from '../../shared/items/items';
import { CHARGING_OPTIONS } from './chargingOptions';
import { SIMPLIFY_PARAMETERS } from '../../shared/items/simplify';
import {
	LEVEL_PARAMETER,
	MAX_CREDITS_PARAMETER,
	booleanParameter,
	whenMaxCreditsReachedParameter,
} from '../../shared/parameters/descriptions';
import { CONTACT_IDS_PARAMETERS } from '../../shared/parameters/perItemParameters';
import { checkBody } from '../../shared/parameters/values';
import { plural, unique } from '../../shared/parameters/utilities';

const showFor = { show: { resource: ['contact'], operation: ['unlock'] } };

/** The operation's When Max Credits Is Reached: its What Fits choice, also read by the run. */
const WHEN_MAX_CREDITS_REACHED = whenMaxCreditsReachedParameter(showFor, {
	name: 'Unlock What Fits',
	description:
		'Unlock contacts in input order up to Max Credits; the rest pass through unsent, marked "unlock_skipped": "budget"',
});

export const description: INodeProperties[] = [
	...CONTACT_IDS_PARAMETERS,
	LEVEL_PARAMETER,
	MAX_CREDITS_PARAMETER,
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

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const run = chargingRunOf(this, WHEN_MAX_CREDITS_REACHED);
	// 1. Read and check every item's ids before anything is sent; an id an item repeats is one contact.
	const contactIdsOf = contactIdsReader(this, items);
	const { checked, refused } = await checkEveryItem(this, items, (itemIndex) =>
		unique(contactIdsOf(itemIndex)).map((id) => ({ itemIndex, id })),
	);
	const plan = planOf(this, items, checked.flat(), run.level);
	const results: Results = { records: new Map(), missing: new Map(), failures: new Map() };
	const calls = unlockCalls(this, run, results);
	// 2. Stop Before Spending: a run that could go over sends nothing (a replay of this execution is free).
	const replayed = new Set(calls.replayedIds(plan.queue, LIMITS.idsPerUnlock));
	const mayCharge = plan.mayCharge.filter((id) => !replayed.has(id)).length;
	const what = `unlocking ${plural(mayCharge, 'contact')} at ${run.level} level`;
	const refusal = stopBeforeSpending(this, run, what, mayCharge * run.cost);
	if (refusal) for (const id of plan.queue.splice(0)) results.failures.set(id, refusal);
	// 3. Calls of up to 100 ids, each cut to what the budget still holds, in order; lost answers replayed.
	await sendWithinBudget(calls, plan, results);
	await calls.replayLost();
	calls.finish();
	// 4. What the budget did not reach: after a refused balance, or under Stop Before Spending, an error.
	const reason = results.refusedBalance ?? budgetReached(this, run, plan.queue.length, 'contact');
	if (reason) for (const id of plan.queue) results.failures.set(id, reason);
	// 5. One output item per wanted id, in input order.
	const passedOver = new Set(reason ? [] : plan.queue);
	const output = outputItems(this, items, plan, results, { refused, passedOver });
	const skipped = plan.wanted.filter(plan.isSkipped).length;
	return finishRun(this, run, output, {
		done: `Unlocked ${plural(results.records.size, 'unique contact')} (${run.level}) in ${plural(calls.sent, 'call')}`,
		notSent: results.refusedBalance ? 0 : plan.queue.length,
		unit: 'contact',
		also: skipped ? `; ${skipped} already unlocked and skipped` : '',
	});
}

/** One contact id wanted by one input item (an item may hold several). */
type Wanted = { itemIndex: number; id: string };

/** What a run sends, worked out from the checked items before anything is sent. */
interface Plan {
	/** One entry per id an item wants, in input order. */
	wanted: Wanted[];
	/** Whether Skip Already Unlocked passes this entry through unsent. */
	isSkipped: (entry: Wanted) => boolean;
	/** The unique ids to send, those shown as held first; what the budget does not reach stays. */
	queue: string[];
	/** Those the input does not show as held: what the run may be charged for. */
	mayCharge: string[];
	/** The first item that wants an id: the item named in the errors of its call. */
	firstItemOf: (id: string) => number | undefined;
}

/** What the calls of a run brought back, by contact id. */
interface Results {
	records: Map<string, IDataObject>;
	/** Ids the API reported as unknown in its answer (nothing charged for them). */
	missing: Map<string, { code?: string; message?: string }>;
	failures: Map<string, Error>;
	/** A refused balance (402): every later call would be refused too. */
	refusedBalance?: Error;
}

/** Whether the input item says it holds the contact at this level: decides Skip Already Unlocked, never the budget. */
function shownAsHeld(json: IDataObject, id: string, level: UnlockLevel): boolean {
	if (json.id !== id || json.unlocked !== true) return false;
	// The levels go from lowest to highest. A preview says only "unlocked": held at the lowest at least.
	const rank = Math.max(0, UNLOCK_LEVELS.indexOf(json.level as UnlockLevel));
	return rank >= UNLOCK_LEVELS.indexOf(level);
}

/** The checked ids as what to send: Skip Already Unlocked applied, each id once, the ones shown as held first. */
function planOf(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	wanted: Wanted[],
	level: UnlockLevel,
): Plan {
	const skipHeld = booleanParameter(
		context,
		'options.skipAlreadyUnlocked',
		'Skip Already Unlocked',
		0,
	);
	const held = ({ itemIndex, id }: Wanted) => shownAsHeld(items[itemIndex].json, id, level);
	const shown = new Set(wanted.filter(held).map(({ id }) => id));
	const isSkipped = (entry: Wanted) => skipHeld && held(entry);
	const toSend = unique(wanted.filter((entry) => !isSkipped(entry)).map(({ id }) => id));
	// What the input shows as held goes first (it is likely free) and forecasts the run, but every call
	// reserves its full price: a wrong "unlocked": true costs its price, within the budget.
	const mayCharge = toSend.filter((id) => !shown.has(id));
	const queue = [...toSend.filter((id) => shown.has(id)), ...mayCharge];
	const firstItem = new Map<string, number>();
	for (const { id, itemIndex } of wanted) if (!firstItem.has(id)) firstItem.set(id, itemIndex);
	return { wanted, isSkipped, queue, mayCharge, firstItemOf: (id) => firstItem.get(id) };
}

/** Unlock's charging calls: an answer mirrors the ids asked for; each settled call is sorted out by id. */
function unlockCalls(context: IExecuteFunctions, run: ChargingRun, results: Results) {
	const names = { ids: 'Contact IDs', level: 'Level' };
	return new ChargingCalls<UnlockAnswer>(context, run, {
		path: PATHS.unlock,
		schema: unlockAnswerSchema,
		answeredIds: (answer) => answer.contacts.map((entry) => String(entry.id)),
		bodyFor: (ids, item = 0) =>
			checkBody(
				context,
				unlockRequestSchema,
				{ ids, level: run.level },
				item,
				names,
			) as IDataObject,
		onSettled: (settled) => sortOut(context, results, settled),
	});
}

/**
 * Sends the queue in calls of up to 100 ids, each cut to what the budget still holds (What Fits);
 * what it never reaches stays in the queue. A refused balance (402) stops every later call.
 */
async function sendWithinBudget(
	calls: ChargingCalls<UnlockAnswer>,
	{ queue, firstItemOf }: Plan,
	results: Results,
): Promise<void> {
	while (queue.length > 0 && !results.refusedBalance) {
		const call = calls.nextIdsCall(queue, LIMITS.idsPerUnlock, firstItemOf);
		if (call) await calls.send(call);
		// Lost answers hold their worst case: their real charge may leave room for more.
		else if (calls.hasLost) await calls.replayLost();
		else return;
	}
}

/**
 * A settled call, sorted by id: each entry of its answer a record or a per-id error; a failure for
 * all its ids. A lost answer waits for its replay; any other failure stops the node unless
 * continueOnFail. A refused balance (402) refuses every later call too.
 */
function sortOut(
	context: IExecuteFunctions,
	results: Results,
	settled: Settled<UnlockAnswer>,
): void {
	if ('answer' in settled) {
		for (const entry of settled.answer.contacts as IDataObject[]) {
			const id = String(entry.id);
			results.failures.delete(id);
			const entryError = entry.error as { code?: string; message?: string } | undefined;
			if (entryError) results.missing.set(id, entryError);
			else results.records.set(id, entry);
		}
		return;
	}
	const { call, failure, lost } = settled;
	for (const id of call.ids ?? []) results.failures.set(id, failure);
	if (lost || failureOf(failure)?.kind === 'notAnswered') return;
	if (!context.continueOnFail()) throw failure;
	if (isRefusal(failure, 'insufficient_credits')) results.refusedBalance = failure;
}

/** The output items, by input item in input order: its error, or its records, pass-throughs and errors. */
function outputItems(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	plan: Plan,
	results: Results,
	{ refused, passedOver }: { refused: Map<number, Error>; passedOver: Set<string> },
): INodeExecutionData[] {
	// `wanted` is in input order: one pass over it, never a search per item.
	const output: INodeExecutionData[] = [];
	let next = 0;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const error = refused.get(itemIndex);
		if (error) output.push(errorItem(error, { item: itemIndex }));
		for (; plan.wanted[next]?.itemIndex === itemIndex; next++) {
			const entry = plan.wanted[next];
			const how = { skipped: plan.isSkipped(entry), passedOver: passedOver.has(entry.id) };
			const item = outputFor(context, items, entry, results, how);
			if (item) output.push(item);
		}
	}
	return output;
}

/** The output item of one wanted id: its record, a pass-through, or its error (thrown without continueOnFail). */
function outputFor(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	{ itemIndex, id }: Wanted,
	results: Results,
	{ skipped, passedOver }: { skipped: boolean; passedOver: boolean },
): INodeExecutionData | undefined {
	const json = items[itemIndex].json;
	const pairedItem = { item: itemIndex };
	if (skipped) return { json: { ...json, unlock_skipped: 'already_unlocked' }, pairedItem };
	const record = results.records.get(id);
	if (record) return { json: { ...record }, pairedItem };
	if (passedOver) return { json: skippedForBudget(json.id === id ? json : { id }), pairedItem };
	const entryError = results.missing.get(id);
	const notFound = entryError && entryNotFound(context.getNode(), id, entryError, itemIndex);
	const failure = notFound ? asNodeError(context, notFound, itemIndex) : results.failures.get(id);
	if (!failure) return undefined;
	if (!context.continueOnFail()) throw asNodeError(context, failure, itemIndex);
	return errorItem(failure, pairedItem, { id });
}
