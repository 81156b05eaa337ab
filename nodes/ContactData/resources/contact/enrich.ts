/**
 * Contact → Enrich, top-down: check every item, Stop Before Spending, one call per item in order
 * while the budget holds its worst case (a person already charged in the run is free), replay lost
 * answers, then one output item per input item. The credit rules are ../../shared/budget/ledger.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { chargingCallOf, sendCharging, type ChargingCall } from '../../shared/budget/chargingCall';
import * as charging from '../../shared/budget/chargingRun';
import type { ChargingRun } from '../../shared/budget/chargingRun';
import * as contract from '../../shared/client/contract';
import { ApiFailure, failureOf } from '../../shared/client/failures';
import { idempotencyKeyFor } from '../../shared/client/idempotency';
import { asNodeError, checkEveryItem } from '../../shared/items/items';
import { personReader, type Person } from '../../shared/items/perItemReaders';
import { SIMPLIFY_PARAMETERS } from '../../shared/items/simplify';
import * as parameters from '../../shared/parameters/descriptions';
import { personParameters } from '../../shared/parameters/perItemParameters';
import { checkBody } from '../../shared/parameters/values';
import { plural } from '../../shared/parameters/utilities';
import { CHARGING_OPTIONS } from './chargingOptions';

const showFor = { show: { resource: ['contact'], operation: ['enrich'] } };

/** The operation's When Max Credits Is Reached: its What Fits choice, also read by the run. */
const WHEN_MAX_CREDITS_REACHED = parameters.whenMaxCreditsReachedParameter(showFor, {
	name: 'Enrich What Fits',
	description:
		'Enrich items in input order up to Max Credits; the rest pass through unsent, marked "unlock_skipped": "budget"',
});

export const description: INodeProperties[] = [
	...personParameters(showFor),
	parameters.LEVEL_PARAMETER,
	parameters.MAX_CREDITS_PARAMETER,
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
	/** The person asked for (the body without its level): once charged, free at that level or below. */
	person: string;
	/** Its call's Idempotency-Key, naming its item: the same for every send. */
	key: string;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const run = charging.chargingRunOf(this, WHEN_MAX_CREDITS_REACHED);
	// 1. Check every item before anything is sent.
	const personOf = personReader(this, items);
	const { checked: lookups, refused } = await checkEveryItem(this, items, (itemIndex) =>
		readLookup(this, itemIndex, run.level, personOf(itemIndex)),
	);
	const outcomes = new Map<number, IDataObject | Error>(refused);
	// 2. Stop Before Spending (the same person twice is charged once; a call sent before needs no room).
	const mayCharge = lookups.filter(
		({ person, key }) => run.budget.priceOf(person, run.rank, 1) > 0 && !run.budget.sentBefore(key),
	);
	const people = new Set(mayCharge.map(({ person }) => person)).size;
	const what = `enriching ${plural(people, 'item')} at ${run.level} level`;
	const refusal = charging.stopBeforeSpending(this, run, what, people * run.cost);
	const queue = refusal ? [] : lookups;
	// 3. One call per item, in order, while the budget holds its worst case; lost answers replayed.
	const notSent = queue.slice(await sendWithinBudget(this, run, queue, outcomes));
	// 4. What the budget did not reach: an error each (Stop Before Spending), or passed through (What Fits).
	const reason = refusal ?? charging.budgetReached(this, run, notSent.length, 'item');
	for (const { itemIndex } of refusal ? lookups : notSent)
		outcomes.set(itemIndex, reason ?? charging.skippedForBudget(items[itemIndex].json));
	// 5. One output item per input item, in order.
	const output = [...outcomes].sort(([a], [b]) => a - b);
	const enriched = output.filter(
		([, json]) => !(json instanceof Error) && charging.isContactRecord(json),
	);
	return charging.finishRun(
		this,
		run,
		output.map(([itemIndex, outcome]) => ({ itemIndex, outcome })),
		{
			done: `Enriched ${plural(enriched.length, 'item')} (${run.level})`,
			notSent: refusal ? 0 : notSent.length,
			unit: 'item',
		},
	);
}

/** Step 1 for one item: its parameters, checked, as the body it sends. */
function readLookup(
	context: IExecuteFunctions,
	itemIndex: number,
	level: contract.UnlockLevel,
	asked: Person,
): Lookup {
	const { email, linkedinUrl, names } = asked;
	const outputNoMatch = parameters.booleanParameter(
		context,
		'options.outputNoMatch',
		'Output No-Match Items',
		itemIndex,
	);
	const body = checkBody(
		context,
		contract.enrichRequestSchema,
		{ ...(email ? { email } : {}), ...(linkedinUrl ? { linkedin_url: linkedinUrl } : {}), level },
		itemIndex,
		{ ...names, level: 'Level' },
	) as IDataObject;
	const person = JSON.stringify({ ...body, level: undefined });
	const key = idempotencyKeyFor(context, contract.PATHS.enrich, body, itemIndex);
	return { itemIndex, body, email, linkedinUrl, outputNoMatch, person, key };
}

/**
 * Sends one call per lookup, in order, while the budget holds its worst case (nothing for a person
 * charged before), then replays each lost answer once. Returns how many lookups were sent.
 */
async function sendWithinBudget(
	context: IExecuteFunctions,
	{ budget, rank, cost }: ChargingRun,
	queue: Lookup[],
	outcomes: Map<number, IDataObject | Error>,
): Promise<number> {
	const lost: [Lookup, ChargingCall][] = [];
	const send = async (lookup: Lookup, call: ChargingCall) => {
		const sent = await sendCharging(context, budget, call, contract.enrichAnswerSchema);
		if ('answer' in sent) {
			budget.hold(lookup.person, charging.rankOf(sent.answer.contact.level));
			const contact = sent.answer.contact as IDataObject;
			outcomes.set(
				lookup.itemIndex,
				lookup.outputNoMatch ? { matched: true, ...contact } : contact,
			);
		} else if (failureOf(sent.failure)?.kind === 'noMatch')
			outcomes.set(lookup.itemIndex, noMatch(context, lookup));
		else outcomes.set(lookup.itemIndex, sent.failure);
		return 'lost' in sent && sent.lost;
	};
	let next = 0;
	for (; next < queue.length; next++) {
		const lookup = queue[next];
		const { body, itemIndex, person, key } = lookup;
		const priceNow = () => budget.priceOf(person, rank, cost);
		// Lost answers hold their worst case: their real charge may leave room for more (or hold this person).
		if (priceNow() > budget.headroom) await replayLost(budget, lost, send);
		const request = { path: contract.PATHS.enrich, body, key, credits: priceNow() };
		const call = chargingCallOf(budget, request, { itemIndex });
		if (!call) break;
		if (await send(lookup, call)) lost.push([lookup, call]);
		else if (outcomes.get(itemIndex) instanceof Error && !context.continueOnFail()) {
			for (const [, waiting] of lost) budget.keepLost(waiting.reservation); // for Retry On Fail
			throw asNodeError(context, outcomes.get(itemIndex), itemIndex);
		}
	}
	await replayLost(budget, lost, send);
	return next;
}

/**
 * Sends each lost call once more; one lost again keeps its worst case held under its key. After a
 * charge above its worst case no charging call follows, a replay neither.
 */
async function replayLost(
	budget: ChargingRun['budget'],
	lost: [Lookup, ChargingCall][],
	send: (lookup: Lookup, call: ChargingCall) => Promise<boolean>,
): Promise<void> {
	for (const [lookup, call] of lost.splice(0))
		if (budget.overcharge !== undefined || (await send(lookup, call)))
			budget.keepLost(call.reservation);
}

/** No contact matches: an item saying so (Output No-Match Items), or an error that says how to get one. */
function noMatch(
	context: IExecuteFunctions,
	{ itemIndex, email, linkedinUrl, outputNoMatch }: Lookup,
): IDataObject | Error {
	if (outputNoMatch)
		return { matched: false, email: email || null, linkedin_url: linkedinUrl || null };
	return new ApiFailure(context, 'noMatch', {
		message: `No contact matches ${email ? `the email "${email}"` : `the LinkedIn URL "${linkedinUrl}"`}`,
		description:
			'This lookup was not charged. To get an item with "matched": false instead, and branch on it with an IF node, turn on Options → Output No-Match Items.',
		status: 404,
		apiCode: 'not_found',
		itemIndex,
	});
}
