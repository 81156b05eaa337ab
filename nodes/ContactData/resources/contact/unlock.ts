import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ChargingDriver, type Settled } from '../../shared/credits/chargingDriver';
import {
	budgetReached,
	chargingRunOf,
	finishRun,
	stopBeforeSpending,
	type ChargingRun,
} from '../../shared/credits/chargingRun';
import {
	LIMITS,
	PATHS,
	unlockAnswerSchema,
	unlockRequestSchema,
	type UnlockAnswer,
	type UnlockLevel,
} from '../../shared/client/contract';
import { failureOf, isRefusal } from '../../shared/client/failures';
import {
	booleanParameter,
	levelParameter,
	maxCreditsParameter,
	whenMaxCreditsReachedParameter,
} from '../../shared/parameters/descriptions';
import { checkEveryItem } from '../../shared/items/items';
import { simplifyParameters } from '../../shared/items/simplify';
import { capsOverTimeOptions } from '../../shared/parameters/capsOverTime';
import { checkBody, plural } from '../../shared/parameters/values';
import { contactIdsParameters } from '../../shared/parameters/inputFields';
import { contactIdsReader } from '../../shared/items/inputField';
import { outputItems, Results } from './unlockOutput';
import { planOf, wantedBy, type Plan } from './unlockPlan';

const showFor = { show: { resource: ['contact'], operation: ['unlock'] } };

export const description: INodeProperties[] = [
	...contactIdsParameters(showFor, 'The contacts to unlock; by default the ID field of a search result.'),
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
	const skipHeld = booleanParameter(this, 'options.skipAlreadyUnlocked', 'Skip Already Unlocked', 0);
	// 1. Read and check every item's ids before anything is sent.
	const contactIdsOf = contactIdsReader(this, items);
	const { checked, refused } = await checkEveryItem(this, items, (itemIndex) => wantedBy(contactIdsOf, itemIndex));
	const plan = planOf(items, checked.flat(), run.level, skipHeld);
	const results = new Results();
	// 2. Stop Before Spending: a run that could go over sends nothing.
	forecast(this, run, plan, results);
	// 3. Calls of up to 100 ids, each cut to what the budget can still hold, in order.
	const driver = unlockDriver(this, run, results);
	await sendWithinBudget(this, run, driver, plan, results);
	await driver.replayLost();
	driver.finish();
	// 4. What the budget did not reach.
	const notSent = notReached(this, run, plan.queue, results, results.refusedBalance);
	// 5. One output item per wanted id, in input order.
	const passedOver = (id: string) => notSent.has(id) && run.policy === 'whatFits';
	const output = outputItems(this, items, plan, results, { refused, passedOver });
	const skipped = plan.wanted.filter(plan.isSkipped).length;
	return finishRun(this, run, output, {
		done: `Unlocked ${plural(results.records.size, 'unique contact')} (${run.level}) in ${plural(driver.calls, 'call')}`,
		notSent: notSent.size,
		unit: 'contact',
		also: skipped ? `; ${skipped} already unlocked and skipped` : '',
	});
}

/** Stop Before Spending refuses a run that could go over: every id gets the refusal, and none is sent. */
function forecast(context: IExecuteFunctions, run: ChargingRun, plan: Plan, results: Results): void {
	const what = `unlocking ${plural(plan.mayCharge, 'contact')} at ${run.level} level`;
	const refusal = stopBeforeSpending(context, run, what, plan.mayCharge * run.cost);
	if (!refusal) return;
	for (const id of plan.queue) results.failures.set(id, refusal);
	plan.queue.length = 0;
}

/** The charging driver as Unlock uses it: answers mirror the ids asked for, each settled call sorted into the results. */
function unlockDriver(context: IExecuteFunctions, run: ChargingRun, results: Results): ChargingDriver<UnlockAnswer> {
	return new ChargingDriver<UnlockAnswer>(context, run, {
		path: PATHS.unlock,
		schema: unlockAnswerSchema,
		answeredIds: (answer) => answer.contacts.map((entry) => String(entry.id)),
		bodyFor: (ids) => unlockBody(context, ids, run.level),
		onSettled: (settled) => sortOut(context, results, settled),
	});
}

/** The body of a call for these ids, checked. */
function unlockBody(context: IExecuteFunctions, ids: string[], level: UnlockLevel, itemIndex = 0): IDataObject {
	return checkBody(context, unlockRequestSchema, { ids, level }, itemIndex, { ids: 'Contact IDs', level: 'Level' }) as IDataObject;
}

/**
 * Sends the queue in calls of up to 100 ids, each cut to what the budget can still hold; what the
 * budget never reaches stays in the queue. A refused balance (402) stops every later call.
 */
async function sendWithinBudget(
	context: IExecuteFunctions,
	run: ChargingRun,
	driver: ChargingDriver<UnlockAnswer>,
	{ queue, firstItemOf }: Plan,
	results: Results,
): Promise<void> {
	while (queue.length > 0 && !results.refusedBalance) {
		const fits = Math.min(LIMITS.idsPerUnlock, queue.length, Math.floor(run.budget.headroom / run.cost));
		const size = heldCallSize(context, run, driver, queue) ?? fits;
		if (size === 0) {
			// Lost answers hold their worst case: their real charge may leave room for more.
			if (!driver.hasLost) return;
			await driver.replayLost();
			continue;
		}
		const ids = queue.splice(0, size);
		const itemIndex = firstItemOf(ids[0]);
		const call = driver.callFor(unlockBody(context, ids, run.level, itemIndex), size * run.cost, { itemIndex, ids });
		if (!call) {
			// The cap refused the call after all: its ids stay unsent, for what the budget did not reach.
			queue.unshift(...ids);
			return;
		}
		await driver.send(call);
	}
}

/**
 * The size of a call that a lost call of an earlier tool call of this execution was (the same ids
 * first in the queue): it takes that call's reservation over, so the cap does not refuse its replay.
 */
function heldCallSize(
	context: IExecuteFunctions,
	{ budget, cost, level }: ChargingRun,
	driver: ChargingDriver<UnlockAnswer>,
	queue: string[],
): number | undefined {
	const fits = (size: number) => Number.isInteger(size) && size > 0 && size <= Math.min(LIMITS.idsPerUnlock, queue.length);
	const sizes = budget.heldCredits().map((credits) => credits / cost).filter(fits);
	return sizes.find((size) => budget.holds(driver.keyFor(unlockBody(context, queue.slice(0, size), level))));
}

/**
 * A settled call, sorted by id: each entry of its answer a record or a per-id error; a failure for
 * all its ids. A lost answer waits for its replay; any other failure stops the node unless
 * continueOnFail. A refused balance (402) refuses every later call too.
 */
function sortOut(context: IExecuteFunctions, results: Results, settled: Settled<UnlockAnswer>): void {
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

/**
 * What the budget did not reach: after a refused balance every id left fails with it; under Stop
 * Before Spending the rest fail with Max Credits reached. Returns the ids not sent.
 */
function notReached(
	context: IExecuteFunctions,
	run: ChargingRun,
	queue: string[],
	results: Results,
	stopped: Error | undefined,
): Set<string> {
	if (stopped) for (const id of queue.splice(0)) results.failures.set(id, stopped);
	const notSent = new Set(queue);
	const reached = notSent.size > 0 ? budgetReached(context, run, plural(notSent.size, 'contact')) : undefined;
	if (reached) for (const id of notSent) results.failures.set(id, reached);
	return notSent;
}
