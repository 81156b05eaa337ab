/** Contact → Enrich: one call per item in input order, within the budget; a person paid once. */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { chargingCallOf, sendCharging, type ChargingCall } from '../../shared/budget/chargingCall';
import * as charging from '../../shared/budget/chargingRun';
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

type Lookup = ReturnType<typeof lookupOf>;
type Outcomes = Map<number, IDataObject | Error>;

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const run = charging.chargingRunOf(this, WHEN_MAX_CREDITS_REACHED);
	const { budget, rank, level } = run;
	const personOf = personReader(this, items);
	const { checked: lookups, refused } = await checkEveryItem(this, items, (itemIndex) =>
		lookupOf(this, itemIndex, level, personOf(itemIndex)),
	);
	const outcomes: Outcomes = new Map(refused);
	// Stop Before Spending: the same person twice is charged once; a call sent before needs no room.
	const mayCharge = lookups.filter(
		({ person, key }) => budget.priceOf(person, rank, 1) > 0 && !budget.sentBefore(key),
	);
	const people = new Set(mayCharge.map(({ person }) => person));
	const what = `enriching ${plural(people.size, 'item')} at ${level} level`;
	const refusal = charging.stopBeforeSpending(this, run, what, people.size * run.cost);
	const notSent = refusal
		? lookups
		: lookups.slice(await sendWithinBudget(this, run, lookups, outcomes));
	// What the budget did not reach: an error each (Stop Before Spending), or passed through (What Fits).
	const reason = refusal ?? charging.budgetReached(this, run, notSent.length, 'item');
	for (const { itemIndex } of notSent)
		outcomes.set(itemIndex, reason ?? charging.skippedForBudget(items[itemIndex].json));
	const output = [...outcomes].sort(([a], [b]) => a - b);
	const enriched = output.filter(
		([, json]) => !(json instanceof Error) && charging.isContactRecord(json),
	);
	return charging.finishRun(
		this,
		run,
		output.map(([itemIndex, outcome]) => ({ itemIndex, outcome })),
		{
			done: `Enriched ${plural(enriched.length, 'item')} (${level})`,
			notSent: refusal ? 0 : notSent.length,
			unit: 'item',
		},
	);
}

/** One item's call, checked before anything is sent. */
function lookupOf(context: IExecuteFunctions, itemIndex: number, level: string, asked: Person) {
	const { email, linkedinUrl, names } = asked;
	const option = 'options.outputNoMatch';
	const outputNoMatch = parameters.booleanParameter(
		context,
		option,
		'Output No-Match Items',
		itemIndex,
	);
	const wanted = {
		...(email ? { email } : {}),
		...(linkedinUrl ? { linkedin_url: linkedinUrl } : {}),
	};
	const { enrichRequestSchema, PATHS } = contract;
	const fieldNames = { ...names, level: 'Level' };
	const body = checkBody(
		context,
		enrichRequestSchema,
		{ ...wanted, level },
		itemIndex,
		fieldNames,
	) as IDataObject;
	// Once charged, the person (the body without its level) is free at that level or below.
	const person = JSON.stringify({ ...body, level: undefined });
	const key = idempotencyKeyFor(context, PATHS.enrich, body, itemIndex);
	return { itemIndex, body, email, linkedinUrl, outputNoMatch, person, key };
}

/** One call per lookup in order while the budget holds it, then each lost answer replayed once. */
async function sendWithinBudget(
	context: IExecuteFunctions,
	{ budget, rank, cost }: charging.ChargingRun,
	queue: Lookup[],
	outcomes: Outcomes,
): Promise<number> {
	const lost: [Lookup, ChargingCall][] = [];
	let next = 0;
	for (; next < queue.length; next++) {
		const lookup = queue[next];
		const { body, itemIndex, person, key } = lookup;
		const priceNow = () => budget.priceOf(person, rank, cost);
		// A lost answer holds its worst case: its real charge may leave room (or hold this person).
		if (priceNow() > budget.headroom) await replayLost(context, budget, lost, outcomes);
		const path = contract.PATHS.enrich;
		const call = chargingCallOf(budget, { path, body, key, credits: priceNow(), itemIndex });
		if (!call) break;
		if (await send(context, budget, lookup, call, outcomes)) lost.push([lookup, call]);
		else if (outcomes.get(itemIndex) instanceof Error && !context.continueOnFail()) {
			for (const [, waiting] of lost) budget.keepLost(waiting.reservation); // for Retry On Fail
			throw asNodeError(context, outcomes.get(itemIndex), itemIndex);
		}
	}
	await replayLost(context, budget, lost, outcomes);
	return next;
}

/** Sends a call and sets its item's outcome; true when its answer was lost. */
async function send(
	context: IExecuteFunctions,
	budget: charging.ChargingRun['budget'],
	lookup: Lookup,
	call: ChargingCall,
	outcomes: Outcomes,
): Promise<boolean> {
	const sent = await sendCharging(context, budget, call, contract.enrichAnswerSchema);
	if ('failure' in sent) {
		const noMatch = failureOf(sent.failure)?.kind === 'noMatch';
		outcomes.set(lookup.itemIndex, noMatch ? noMatchOf(context, lookup) : sent.failure);
		return sent.lost;
	}
	const contact = sent.answer.contact as IDataObject;
	budget.hold(lookup.person, charging.rankOf(contact.level));
	outcomes.set(lookup.itemIndex, lookup.outputNoMatch ? { matched: true, ...contact } : contact);
	return false;
}

/** Each lost call sent once more; lost again (or after an overcharge), its worst case stays held. */
async function replayLost(
	context: IExecuteFunctions,
	budget: charging.ChargingRun['budget'],
	lost: [Lookup, ChargingCall][],
	outcomes: Outcomes,
): Promise<void> {
	for (const [lookup, call] of lost.splice(0))
		if (budget.overcharge !== undefined || (await send(context, budget, lookup, call, outcomes)))
			budget.keepLost(call.reservation);
}

/** No contact matches: an item saying so (Output No-Match Items), or an error that says how to get one. */
function noMatchOf(
	context: IExecuteFunctions,
	{ itemIndex, email, linkedinUrl, outputNoMatch }: Lookup,
) {
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
