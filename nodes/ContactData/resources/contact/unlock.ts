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
	JsonObject,
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
import { apiFailure, failureOf, isRefusal } from '../../shared/client/failures';
import { ChargingCalls, type Settled } from '../../shared/budget/chargingCalls';
import {
	budgetReached,
	chargingRunOf,
	finishRun,
	skippedForBudget,
	stopBeforeSpending,
	type ChargingRun,
} from '../../shared/budget/chargingRun';
import { callSize } from '../../shared/budget/rules';
import { contactIdsReader } from '../../shared/items/inputField';
import { asNodeError, checkEveryItem, errorItem } from '../../shared/items/items';
import { simplifyParameters } from '../../shared/items/simplify';
import { capsOverTimeOptions } from '../../shared/parameters/capsOverTime';
import {
	booleanParameter,
	levelParameter,
	maxCreditsParameter,
	whenMaxCreditsReachedParameter,
} from '../../shared/parameters/descriptions';
import { contactIdsParameters } from '../../shared/parameters/inputFields';
import { checkBody, plural, unique } from '../../shared/parameters/values';

const showFor = { show: { resource: ['contact'], operation: ['unlock'] } };

export const description: INodeProperties[] = [
	...contactIdsParameters(
		showFor,
		'The contacts to unlock; by default the ID field of a search result.',
	),
	levelParameter(showFor),
	maxCreditsParameter(showFor),
	whenMaxCreditsReachedParameter(showFor, {
		name: 'Unlock What Fits',
		description:
			'Unlock contacts in input order up to Max Credits; the rest pass through unsent, marked "unlock_skipped": "budget"',
	}),
	...simplifyParameters(showFor),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor,
		options: [
			...capsOverTimeOptions,
			{
				displayName: 'Skip Already Unlocked',
				name: 'skipAlreadyUnlocked',
				type: 'boolean',
				default: false,
				description:
					'Whether to pass input items that already show "unlocked": true (search results of contacts you hold) through unchanged, without unlocking them again. Off: they are unlocked again, free of charge, and returned with their full record.',
			},
		],
	},
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
	const run = chargingRunOf(this, 'Unlock What Fits');
	const skipHeld = booleanParameter(
		this,
		'options.skipAlreadyUnlocked',
		'Skip Already Unlocked',
		0,
	);
	// 1. Read and check every item's ids before anything is sent; an id an item repeats is one contact.
	const contactIdsOf = contactIdsReader(this, items);
	const { checked, refused } = await checkEveryItem(this, items, (itemIndex) =>
		unique(contactIdsOf(itemIndex)).map((id) => ({ itemIndex, id })),
	);
	const plan = planOf(items, checked.flat(), run.level, skipHeld);
	const results: Results = { records: new Map(), missing: new Map(), failures: new Map() };
	// 2. Stop Before Spending: a run that could go over sends nothing.
	const what = `unlocking ${plural(plan.mayCharge, 'contact')} at ${run.level} level`;
	const refusal = stopBeforeSpending(this, run, what, plan.mayCharge * run.cost);
	if (refusal) for (const id of plan.queue.splice(0)) results.failures.set(id, refusal);
	// 3. Calls of up to 100 ids, each cut to what the budget still holds, in order; lost answers replayed.
	const calls = new ChargingCalls<UnlockAnswer>(this, run, {
		path: PATHS.unlock,
		schema: unlockAnswerSchema,
		answeredIds: (answer) => answer.contacts.map((entry) => String(entry.id)),
		bodyFor: (ids) => unlockBody(this, ids, run.level),
		onSettled: (settled) => sortOut(this, results, settled),
	});
	await sendWithinBudget(this, run, calls, plan, results);
	await calls.replayLost();
	calls.finish();
	// 4. What the budget did not reach: after a refused balance, or under Stop Before Spending, an error.
	const reached =
		plan.queue.length > 0
			? budgetReached(this, run, plural(plan.queue.length, 'contact'))
			: undefined;
	const reason = results.refusedBalance ?? reached;
	const notSent = new Set(plan.queue);
	if (reason) for (const id of plan.queue) results.failures.set(id, reason);
	// 5. One output item per wanted id, in input order.
	const passedOver = (id: string) => notSent.has(id) && !reason;
	const output = outputItems(this, items, plan, results, { refused, passedOver });
	const skipped = plan.wanted.filter(plan.isSkipped).length;
	return finishRun(this, run, output, {
		done: `Unlocked ${plural(results.records.size, 'unique contact')} (${run.level}) in ${plural(calls.sent, 'call')}`,
		notSent: results.refusedBalance ? 0 : notSent.size,
		unit: 'contact',
		also: skipped ? `; ${skipped} already unlocked and skipped` : '',
	});
}

/** One contact id wanted by one input item (an item may hold several). */
interface Wanted {
	itemIndex: number;
	id: string;
}

/** What a run sends, worked out from the checked items before anything is sent. */
interface Plan {
	/** One entry per id an item wants, in input order. */
	wanted: Wanted[];
	/** Whether Skip Already Unlocked passes this entry through unsent. */
	isSkipped: (entry: Wanted) => boolean;
	/** The unique ids to send, those the input shows as held first; what the budget does not reach stays here. */
	queue: string[];
	/** How many of them the input does not show as held: what the run may be charged for. */
	mayCharge: number;
	/** The first item that wants an id: the item named in the errors of its call. */
	firstItemOf: (id: string) => number | undefined;
}

/** What the calls of a run brought back, by contact id. */
interface Results {
	records: Map<string, IDataObject>;
	/** Ids the API reported per entry as unknown (nothing charged for them). */
	missing: Map<string, { code?: string; message?: string }>;
	failures: Map<string, Error>;
	/** A refused balance (402): every later call would be refused too. */
	refusedBalance?: Error;
}

const LEVEL_RANK: Record<UnlockLevel, number> = { basic: 0, premium: 1 };

/** Whether the input item says it holds the contact at this level: decides Skip Already Unlocked, never the budget. */
function shownAsHeld(json: IDataObject, id: string, level: UnlockLevel): boolean {
	if (json.id !== id || json.unlocked !== true) return false;
	const heldLevel = json.level as UnlockLevel | undefined;
	// A preview says only "unlocked": it is held at basic level at least.
	const rank = heldLevel && UNLOCK_LEVELS.includes(heldLevel) ? LEVEL_RANK[heldLevel] : 0;
	return rank >= LEVEL_RANK[level];
}

/** The checked ids as what to send: Skip Already Unlocked applied, each id once, the ones shown as held first. */
function planOf(
	items: INodeExecutionData[],
	wanted: Wanted[],
	level: UnlockLevel,
	skipHeld: boolean,
): Plan {
	const shown = new Set(
		wanted
			.filter(({ itemIndex, id }) => shownAsHeld(items[itemIndex].json, id, level))
			.map(({ id }) => id),
	);
	const isSkipped = ({ itemIndex, id }: Wanted) =>
		skipHeld && shownAsHeld(items[itemIndex].json, id, level);
	const toSend = unique(wanted.filter((entry) => !isSkipped(entry)).map(({ id }) => id));
	// What the input shows as held goes first (it is likely free) and forecasts the run, but every call
	// reserves its full price: a wrong "unlocked": true costs its price, within the budget.
	const queue = [...toSend.filter((id) => shown.has(id)), ...toSend.filter((id) => !shown.has(id))];
	const mayCharge = toSend.filter((id) => !shown.has(id)).length;
	const firstItemOf = (id: string) => wanted.find((entry) => entry.id === id)?.itemIndex;
	return { wanted, isSkipped, queue, mayCharge, firstItemOf };
}

/** The body of a call for these ids, checked. */
function unlockBody(
	context: IExecuteFunctions,
	ids: string[],
	level: UnlockLevel,
	itemIndex = 0,
): IDataObject {
	return checkBody(context, unlockRequestSchema, { ids, level }, itemIndex, {
		ids: 'Contact IDs',
		level: 'Level',
	}) as IDataObject;
}

/**
 * Sends the queue in calls of up to 100 ids, each cut to what the budget still holds (What Fits);
 * what it never reaches stays in the queue. A refused balance (402) stops every later call.
 */
async function sendWithinBudget(
	context: IExecuteFunctions,
	run: ChargingRun,
	calls: ChargingCalls<UnlockAnswer>,
	{ queue, firstItemOf }: Plan,
	results: Results,
): Promise<void> {
	while (queue.length > 0 && !results.refusedBalance) {
		const size =
			heldCallSize(context, run, calls, queue) ??
			callSize(LIMITS.idsPerUnlock, queue.length, run.budget.headroom, run.cost);
		if (size === 0) {
			// Lost answers hold their worst case: their real charge may leave room for more.
			if (!calls.hasLost) return;
			await calls.replayLost();
			continue;
		}
		const ids = queue.splice(0, size);
		const itemIndex = firstItemOf(ids[0]);
		// The size fits what the budget holds, reserved at once: the call is never refused here.
		const call = calls.callFor(unlockBody(context, ids, run.level, itemIndex), size * run.cost, {
			itemIndex,
			ids,
		})!;
		await calls.send(call);
	}
}

/**
 * The size of a call whose answer stayed lost in an earlier tool call of this execution (the same
 * ids first in the queue): it takes that call's reservation over, so the cap does not refuse its replay.
 */
function heldCallSize(
	context: IExecuteFunctions,
	{ budget, cost, level }: ChargingRun,
	calls: ChargingCalls<UnlockAnswer>,
	queue: string[],
): number | undefined {
	const fits = (size: number) =>
		Number.isInteger(size) && size > 0 && size <= Math.min(LIMITS.idsPerUnlock, queue.length);
	const sizes = budget
		.heldCredits()
		.map((credits) => credits / cost)
		.filter(fits);
	return sizes.find((size) =>
		budget.holds(calls.keyFor(unlockBody(context, queue.slice(0, size), level))),
	);
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

/** The output items, grouped by input item in input order: its records, pass-throughs and errors. */
function outputItems(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	plan: Plan,
	results: Results,
	{ refused, passedOver }: { refused: Map<number, Error>; passedOver: (id: string) => boolean },
): INodeExecutionData[] {
	const outcome = new Map<number, INodeExecutionData[]>();
	for (const [itemIndex, error] of refused)
		outcome.set(itemIndex, [errorItem(error, { item: itemIndex })]);
	for (const entry of plan.wanted) {
		const itemOutput = outcome.get(entry.itemIndex) ?? [];
		outcome.set(entry.itemIndex, itemOutput);
		const output = outputFor(
			context,
			items,
			entry,
			results,
			plan.isSkipped(entry),
			passedOver(entry.id),
		);
		if (output) itemOutput.push(output);
	}
	return [...outcome.keys()]
		.sort((a, b) => a - b)
		.flatMap((itemIndex) => outcome.get(itemIndex) ?? []);
}

/** The output item of one wanted id: its record, a pass-through, or its error (thrown without continueOnFail). */
function outputFor(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	{ itemIndex, id }: Wanted,
	results: Results,
	skipped: boolean,
	passedOver: boolean,
): INodeExecutionData | undefined {
	const json = items[itemIndex].json;
	const pairedItem = { item: itemIndex };
	if (skipped) return { json: { ...json, unlock_skipped: 'already_unlocked' }, pairedItem };
	const record = results.records.get(id);
	if (record) return { json: { ...record }, pairedItem };
	if (passedOver) return { json: skippedForBudget(json.id === id ? json : { id }), pairedItem };
	const entryError = results.missing.get(id);
	const failure = entryError
		? notFoundError(context, id, entryError, itemIndex)
		: results.failures.get(id);
	if (!failure) return undefined;
	if (!context.continueOnFail()) throw asNodeError(context, failure, itemIndex);
	return errorItem(failure, pairedItem, { id });
}

/** An id the API reported as unknown in its answer (its 404 for that id): nothing was charged for it. */
function notFoundError(
	context: IExecuteFunctions,
	id: string,
	entryError: { code?: string; message?: string },
	itemIndex: number,
): Error {
	const error = apiFailure(context.getNode(), 'noMatch', {
		body: { id, ...entryError } as JsonObject,
		message: `${entryError.message ?? 'Contact not found'} (contact ${id})`,
		description: `${entryError.code ?? 'not_found'}: no contact has this ID, so nothing was charged for it. The other contacts of this run were unlocked.`,
		status: entryError.code === 'not_found' ? 404 : undefined,
		apiCode: entryError.code,
		itemIndex,
	});
	return asNodeError(context, error, itemIndex);
}
