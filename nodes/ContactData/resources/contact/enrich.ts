/**
 * Contact → Enrich, top-down: check every item, Stop Before Spending, one call per item in order
 * while the budget holds its worst case (the same person twice is charged once), replay lost
 * answers, then one output item per input item. The credit rules are ../../shared/budget.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ChargingCalls, type Settled } from '../../shared/budget/chargingCalls';
import {
	budgetReached,
	chargingRunOf,
	finishRun,
	isContactRecord,
	skippedForBudget,
	stopBeforeSpending,
	type ChargingRun,
} from '../../shared/budget/chargingRun';
import {
	PATHS,
	enrichAnswerSchema,
	enrichRequestSchema,
	type EnrichAnswer,
	type UnlockLevel,
} from '../../shared/client/contract';
import { apiFailure, failureOf } from '../../shared/client/failures';
import { personReader, type Person } from '../../shared/items/perItemReaders';
import { asNodeError, checkEveryItem, errorItem } from '../../shared/items/items';
import { CHARGING_OPTIONS } from './chargingOptions';
import { SIMPLIFY_PARAMETERS } from '../../shared/items/simplify';
import {
	LEVEL_PARAMETER,
	MAX_CREDITS_PARAMETER,
	booleanParameter,
	whenMaxCreditsReachedParameter,
} from '../../shared/parameters/descriptions';
import { checkBody } from '../../shared/parameters/values';
import { plural } from '../../shared/parameters/utilities';
import { personParameters } from '../../shared/parameters/perItemParameters';

const showFor = { show: { resource: ['contact'], operation: ['enrich'] } };

/** The operation's When Max Credits Is Reached: its What Fits choice, also read by the run. */
const WHEN_MAX_CREDITS_REACHED = whenMaxCreditsReachedParameter(showFor, {
	name: 'Enrich What Fits',
	description:
		'Enrich items in input order up to Max Credits; the rest pass through unsent, marked "unlock_skipped": "budget"',
});

export const description: INodeProperties[] = [
	...personParameters(showFor),
	LEVEL_PARAMETER,
	MAX_CREDITS_PARAMETER,
	WHEN_MAX_CREDITS_REACHED,
	...SIMPLIFY_PARAMETERS,
	CHARGING_OPTIONS,
];

/** One item's enrich call, checked before anything is sent. */
interface Lookup {
	itemIndex: number;
	body: IDataObject;
	email: string;
	linkedinUrl: string;
	outputNoMatch: boolean;
	/** The body as JSON text: the same person asked for twice in a run is charged once. */
	text: string;
}

type Outcome = IDataObject | Error;

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const run = chargingRunOf(this, WHEN_MAX_CREDITS_REACHED);
	// 1. Check every item before anything is sent.
	const personOf = personReader(this, items);
	const { checked: lookups, refused } = await checkEveryItem(this, items, (itemIndex) =>
		readLookup(this, itemIndex, run.level, personOf(itemIndex)),
	);
	const outcomes = new Map<number, Outcome>(refused);
	const calls = enrichCalls(this, run, lookups, outcomes);
	// 2. Stop Before Spending: a run that could go over sends nothing (the same person twice is
	// charged once, and a replay of this execution is free).
	const charged = lookups.filter(({ body, itemIndex }) => !calls.sentBefore(body, itemIndex));
	const people = new Set(charged.map(({ text }) => text)).size;
	const refusal = stopBeforeSpending(
		this,
		run,
		`enriching ${plural(people, 'item')} at ${run.level} level`,
		people * run.cost,
	);
	if (refusal) for (const { itemIndex } of lookups) outcomes.set(itemIndex, refusal);
	const queue = refusal ? [] : lookups;
	// 3. One call per item, in order, while the budget holds its worst case; lost answers replayed.
	const notSent = queue.slice(await sendWithinBudget(run, calls, queue, outcomes));
	calls.finish();
	// 4. What the budget did not reach: an error each (Stop Before Spending), or passed through (What Fits).
	const reached = budgetReached(this, run, notSent.length, 'item');
	for (const { itemIndex } of notSent)
		outcomes.set(itemIndex, reached ?? skippedForBudget(items[itemIndex].json));
	// 5. One output item per input item, in order.
	const output = outputItems(this, items, outcomes);
	const enriched = output.filter(({ json }) => isContactRecord(json)).length;
	return finishRun(this, run, output, {
		done: `Enriched ${plural(enriched, 'item')} (${run.level})`,
		notSent: notSent.length,
		unit: 'item',
	});
}

/** Step 1 for one item: its parameters, checked, as the body it sends. */
function readLookup(
	context: IExecuteFunctions,
	itemIndex: number,
	level: UnlockLevel,
	person: Person,
): Lookup {
	const { email, linkedinUrl, names } = person;
	const outputNoMatch = booleanParameter(
		context,
		'options.outputNoMatch',
		'Output No-Match Items',
		itemIndex,
	);
	const body = checkBody(
		context,
		enrichRequestSchema,
		{ ...(email ? { email } : {}), ...(linkedinUrl ? { linkedin_url: linkedinUrl } : {}), level },
		itemIndex,
		{ ...names, level: 'Level' },
	) as IDataObject;
	return { itemIndex, body, email, linkedinUrl, outputNoMatch, text: JSON.stringify(body) };
}

/**
 * Enrich's charging calls: one per item (its key names the item), each settled call its item's
 * outcome: its contact, its no-match, or its error (a lost one until its replay).
 */
function enrichCalls(
	context: IExecuteFunctions,
	run: ChargingRun,
	lookups: Lookup[],
	outcomes: Map<number, Outcome>,
): ChargingCalls<EnrichAnswer> {
	const lookupOf = new Map(lookups.map((lookup) => [lookup.itemIndex, lookup]));
	return new ChargingCalls<EnrichAnswer>(context, run, {
		path: PATHS.enrich,
		schema: enrichAnswerSchema,
		keyPerItem: true,
		onSettled: (settled) => {
			const lookup = lookupOf.get(settled.call.itemIndex ?? 0)!;
			const outcome = outcomeOf(context, lookup, settled);
			outcomes.set(lookup.itemIndex, outcome);
			if (
				outcome instanceof Error &&
				!('lost' in settled && settled.lost) &&
				!context.continueOnFail()
			)
				throw outcome;
		},
	});
}

/** An item's outcome from its settled call: its contact, its no-match, or its error. */
function outcomeOf(
	context: IExecuteFunctions,
	lookup: Lookup,
	settled: Settled<EnrichAnswer>,
): Outcome {
	if ('answer' in settled) {
		const contact = settled.answer.contact as IDataObject;
		return lookup.outputNoMatch ? { matched: true, ...contact } : contact;
	}
	return failureOf(settled.failure)?.kind === 'noMatch'
		? noMatch(context, lookup)
		: settled.failure;
}

/**
 * Sends one call per lookup, in order, while the budget holds its worst case: the full price, or
 * nothing for a body already answered in this run. Returns how
 * many lookups were sent; the rest were not reached.
 */
async function sendWithinBudget(
	{ budget, cost }: ChargingRun,
	calls: ChargingCalls<EnrichAnswer>,
	queue: Lookup[],
	outcomes: Map<number, Outcome>,
): Promise<number> {
	const covered = new Set<string>();
	let next = 0;
	for (; next < queue.length; next++) {
		const { body, itemIndex, text } = queue[next];
		const worstCase = covered.has(text) ? 0 : cost;
		// Lost answers hold their worst case: their real charge may leave room for more.
		if (worstCase > budget.headroom && calls.hasLost) await calls.replayLost();
		const call = calls.callFor(body, worstCase, { itemIndex });
		if (!call) break;
		await calls.send(call);
		// A body answered is not charged again in this run. A lost one may never have reached the
		// API: its duplicate (another key) may really be charged, so it reserves the full price.
		if (!(outcomes.get(itemIndex) instanceof Error)) covered.add(text);
	}
	await calls.replayLost();
	return next;
}

/** No contact matches: an item saying so (Output No-Match Items), or an error that says how to get one. */
function noMatch(
	context: IExecuteFunctions,
	{ itemIndex, email, linkedinUrl, outputNoMatch }: Lookup,
): IDataObject | Error {
	if (outputNoMatch)
		return { matched: false, email: email || null, linkedin_url: linkedinUrl || null };
	const error = apiFailure(context.getNode(), 'noMatch', {
		message: `No contact matches ${email ? `the email "${email}"` : `the LinkedIn URL "${linkedinUrl}"`}`,
		description:
			'This lookup was not charged. To get an item with "matched": false instead, and branch on it with an IF node, turn on Options → Output No-Match Items.',
		status: 404,
		apiCode: 'not_found',
		itemIndex,
	});
	return asNodeError(context, error, itemIndex);
}

/** One output item per input item, in order: its contact, no-match or pass-through, or its error (thrown without continueOnFail). */
function outputItems(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	outcomes: Map<number, Outcome>,
): INodeExecutionData[] {
	return items.flatMap((_, itemIndex) => {
		const outcome = outcomes.get(itemIndex);
		if (!(outcome instanceof Error))
			return outcome ? [{ json: outcome, pairedItem: { item: itemIndex } }] : [];
		const failure = asNodeError(context, outcome, itemIndex);
		if (!context.continueOnFail()) throw failure;
		return [errorItem(failure, { item: itemIndex })];
	});
}
