/** Contact → Enrich: one call per item in input order, within the budget; a person paid once. */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import * as loop from '../../shared/budget/chargingLoop';
import type * as charging from '../../shared/budget/chargingOperation';
import { planOf } from '../../shared/budget/chargingPlan';
import { chargingRunOf, rankOf } from '../../shared/budget/chargingRun';
import {
	finishRun,
	isContactRecord,
	type Outcome,
	skippedForBudget,
} from '../../shared/budget/runOutput';
import { budgetReached, stopBeforeSpending } from '../../shared/budget/runTexts';
import * as contract from '../../shared/client/contract';
import { ApiFailure, failureOf } from '../../shared/client/failures';
import { idempotencyKeyFor } from '../../shared/client/idempotency';
import { checkEveryItem } from '../../shared/items/items';
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

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const run = await chargingRunOf(this, WHEN_MAX_CREDITS_REACHED);
	const personOf = personReader(this, items);
	const { checked: lookups, refused } = await checkEveryItem(this, items, (itemIndex) =>
		lookupOf(this, itemIndex, run.level, personOf(itemIndex)),
	);
	// A person asked for by several items is one call, charged once.
	const people = new Map<string, Lookup>();
	for (const lookup of lookups) if (!people.has(lookup.person)) people.set(lookup.person, lookup);
	const enriching: charging.Charging<contract.EnrichAnswer> = {
		...{ context: this, run, outcomes: new Map() },
		op: enrichOperation(this, people),
	};
	const plan = planOf(enriching, [...people.keys()]);
	// Stop Before Spending: the same person twice is charged once; a call sent before needs no room.
	const what = `enriching ${plural(plan.queue.length, 'item')} at ${run.level} level`;
	const refusal = stopBeforeSpending(this, run, what, plan.queue.length * run.cost);
	const notSent = new Set(refusal ? people.keys() : await loop.chargeAll(enriching, plan));
	// What the budget did not reach: an error each (Stop Before Spending), or passed through (What Fits).
	const { stoppedBy, outcomes } = enriching;
	const unsent = lookups.filter(({ person }) => notSent.has(person));
	const reason = refusal ?? stoppedBy ?? budgetReached(this, run, unsent.length, 'item');
	const unsentOutcomes = new Map<number, IDataObject | Error>(
		unsent.map(({ itemIndex }) => [itemIndex, reason ?? skippedForBudget(items[itemIndex].json)]),
	);
	const output = outcomesOf(lookups, new Map([...refused, ...unsentOutcomes]), outcomes);
	const enriched = output.filter(
		({ outcome }) => !(outcome instanceof Error) && isContactRecord(outcome),
	);
	return finishRun(this, run, output, {
		done: `Enriched ${plural(enriched.length, 'item')} (${run.level})`,
		notSent: refusal || stoppedBy ? 0 : unsent.length,
		unit: 'item',
	});
}

/** By input item in input order: its own outcome (refused, not sent), else its person's. */
function outcomesOf(
	lookups: Lookup[],
	byItem: Map<number, IDataObject | Error>,
	byPerson: Map<string, IDataObject | Error>,
): Outcome[] {
	const output: Outcome[] = [...byItem].map(([itemIndex, outcome]) => ({
		itemIndex,
		outcome,
	}));
	for (const { itemIndex, person } of lookups)
		if (!byItem.has(itemIndex) && byPerson.has(person))
			output.push({ itemIndex, outcome: byPerson.get(person)! });
	return output.sort((a, b) => a.itemIndex - b.itemIndex);
}

/** One item's lookup, checked before anything is sent. */
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
	const fieldNames = { ...names, level: 'Level' };
	const body = checkBody(
		context,
		contract.enrichRequestSchema,
		{ ...wanted, level },
		itemIndex,
		fieldNames,
	) as IDataObject;
	// Once charged, the person (the body without its level) is free at that level or below.
	const person = JSON.stringify({ ...body, level: undefined });
	return { itemIndex, email, linkedinUrl, outputNoMatch, person };
}

/** Enrich's request for one person (as its first item asked), and its answer read. */
function enrichOperation(
	context: IExecuteFunctions,
	people: Map<string, Lookup>,
): charging.ChargingOperation<contract.EnrichAnswer> {
	const { PATHS, enrichAnswerSchema } = contract;
	return {
		path: PATHS.enrich,
		schema: enrichAnswerSchema,
		unitsPerCall: 1,
		contacts: false,
		bodyOf: ([person], level) => ({ ...(JSON.parse(person) as IDataObject), level }),
		keyOf: (body) => idempotencyKeyFor(context, PATHS.enrich, body),
		read: ({ contact }, [person]) => {
			const record = contact as IDataObject;
			const found = people.get(person)!.outputNoMatch ? { matched: true, ...record } : record;
			return new Map([[person, { outcome: found, rank: rankOf(contact.level) }]]);
		},
		failedAs: (failure, person) =>
			failureOf(failure)?.kind === 'noMatch' ? noMatchOf(context, people.get(person)!) : failure,
		itemOf: (person) => people.get(person)!.itemIndex,
	};
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
