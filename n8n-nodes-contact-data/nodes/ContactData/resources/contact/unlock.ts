import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import {
	answeredUnreadably,
	certainlyNotCharged,
	creditBudgetOf,
	creditCostOf,
	notEnoughError,
	policyOf,
	reachedError,
	skippedForBudget,
	spentText,
	type CreditBudget,
	type Reservation,
} from '../../shared/budget';
import { withRunCharges } from '../../shared/charges';
import {
	CREDIT_COST,
	LIMITS,
	PATHS,
	UNLOCK_LEVELS,
	unlockRequestSchema,
	unlockResponseSchema,
	type UnlockLevel,
	type UnlockResponse,
} from '../../shared/contract';
import {
	booleanParameter,
	contactIdsParameter,
	levelParameter,
	maxCreditsParameter,
	whenMaxCreditsReachedParameter,
} from '../../shared/descriptions';
import { idempotencyKeyFor } from '../../shared/idempotency';
import { asNodeError, errorItem } from '../../shared/items';
import { simplifyOutput, simplifyParameters } from '../../shared/simplify';
import { apiRequest } from '../../shared/transport';
import { checkBody, checkContactIds, plural, toContactIds, unique } from '../../shared/values';

const showFor = { show: { resource: ['contact'], operation: ['unlock'] } };

export const description: INodeProperties[] = [
	contactIdsParameter(showFor, 'The contacts to unlock; by default the ID field of a search result.'),
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

/** One contact id wanted by one input item (an item may hold several). */
interface Wanted {
	itemIndex: number;
	id: string;
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

/** One unlock call: its ids, and the worst case held for it until its answer settles it. */
interface Call {
	ids: string[];
	body: IDataObject;
	idempotencyKey: string;
	reservation: Reservation;
	firstItem?: number;
}

/** What the calls of a run brought back. */
class Results {
	readonly records = new Map<string, IDataObject>();
	/** Ids the API reported per entry as unknown (nothing charged for them). */
	readonly missing = new Map<string, { code?: string; message?: string }>();
	readonly failures = new Map<string, Error>();
	/** Calls whose answer was lost: their worst case stays reserved until a replay settles it. */
	lost: Call[] = [];
	calls = 0;
}

/** Sends one call (or replays it, with the same key) and settles its reservation with the charge the API reports. */
async function send(
	context: IExecuteFunctions,
	budget: CreditBudget,
	results: Results,
	call: Call,
): Promise<void> {
	results.calls++;
	try {
		const { body: answer } = await (apiRequest<UnlockResponse>).call(context, {
			method: 'POST',
			path: PATHS.unlock,
			body: call.body,
			idempotencyKey: call.idempotencyKey,
			schema: unlockResponseSchema,
			itemIndex: call.firstItem,
		});
		budget.settle(call.reservation, answer);
		for (const entry of answer.contacts as IDataObject[]) {
			const id = String(entry.id);
			results.failures.delete(id);
			const entryError = entry.error as { code?: string; message?: string } | undefined;
			if (entryError) results.missing.set(id, entryError);
			else results.records.set(id, entry);
		}
	} catch (error) {
		// Refused by the API: nothing was charged. Otherwise the answer was lost: keep the worst case.
		if (certainlyNotCharged(error)) budget.release(call.reservation);
		throw asNodeError(context, error, call.firstItem);
	}
}

/** Sends every lost call once more with its own key: the API replays the answer and reports its real charge. */
async function replayLost(context: IExecuteFunctions, budget: CreditBudget, results: Results): Promise<void> {
	const lost = results.lost;
	results.lost = [];
	for (const call of lost) {
		try {
			await send(context, budget, results, call);
		} catch (error) {
			for (const id of call.ids) results.failures.set(id, asNodeError(context, error, call.firstItem));
		}
	}
}

/**
 * Sends the queue in calls of up to 100 ids, each cut to what the budget can still hold; what the
 * budget never reaches stays in the queue. Returns the refusal that stopped every later call (402).
 */
async function sendWithinBudget(
	context: IExecuteFunctions,
	budget: CreditBudget,
	results: Results,
	queue: string[],
	{ level, firstItemOf }: { level: UnlockLevel; firstItemOf: (id: string) => number | undefined },
): Promise<Error | undefined> {
	const cost = CREDIT_COST[level];
	while (queue.length > 0) {
		const size = Math.min(LIMITS.idsPerUnlock, queue.length, Math.floor(budget.headroom / cost));
		if (size === 0) {
			// Lost answers hold their worst case: their real charge may leave room for more.
			if (results.lost.length === 0) return undefined;
			await replayLost(context, budget, results);
			continue;
		}
		const ids = queue.splice(0, size);
		const firstItem = firstItemOf(ids[0]);
		const body = checkBody(context, unlockRequestSchema, { ids, level }, firstItem ?? 0, {
			ids: 'Contact IDs',
			level: 'Level',
		}) as IDataObject;
		const call: Call = {
			ids,
			body,
			idempotencyKey: idempotencyKeyFor(context, PATHS.unlock, body),
			reservation: budget.reserve(size * cost)!,
			firstItem,
		};
		try {
			await send(context, budget, results, call);
		} catch (error) {
			const failure = asNodeError(context, error, firstItem);
			for (const id of ids) results.failures.set(id, failure);
			// Stop pressed: send nothing more.
			if (context.getExecutionCancelSignal()?.aborted) throw failure;
			if (answeredUnreadably(failure)) {
				if (!context.continueOnFail()) throw failure;
				continue;
			}
			if (!certainlyNotCharged(failure)) {
				results.lost.push(call);
				continue;
			}
			if (!context.continueOnFail()) throw failure;
			// A refused balance refuses every later call too: stop sending.
			if (failure instanceof NodeApiError && failure.httpCode === '402') return failure;
		}
	}
	return undefined;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const continueOnFail = this.continueOnFail();
	// Read once per run: one budget and one level for all input items.
	const { level, cost } = creditCostOf(this);
	const budget = creditBudgetOf(this);
	const policy = policyOf(this, 'Unlock What Fits');
	const skipHeld = booleanParameter(this, 'options.skipAlreadyUnlocked', 'Skip Already Unlocked', 0);

	// 1. Read and check every item's ids before anything is sent.
	const outcome = new Map<number, INodeExecutionData[]>();
	const wanted: Wanted[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const raw = this.getNodeParameter('contactIds', itemIndex);
			const ids = checkContactIds(node, toContactIds(raw), 'Contact IDs', itemIndex);
			for (const id of ids) wanted.push({ itemIndex, id });
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this, error, itemIndex);
			outcome.set(itemIndex, [errorItem(error, { item: itemIndex })]);
		}
	}

	const shown = new Set(
		wanted.filter(({ itemIndex, id }) => shownAsHeld(items[itemIndex].json, id, level)).map(({ id }) => id),
	);
	const isSkipped = ({ itemIndex, id }: Wanted) => skipHeld && shownAsHeld(items[itemIndex].json, id, level);
	const toSend = unique(wanted.filter((entry) => !isSkipped(entry)).map(({ id }) => id));
	// What the input shows as held goes first (it is likely free) and forecasts the run, but every call
	// reserves its full price: a wrong "unlocked": true costs its price, within the budget.
	const queue = [...toSend.filter((id) => shown.has(id)), ...toSend.filter((id) => !shown.has(id))];
	const firstItemOf = (id: string) => wanted.find((entry) => entry.id === id)?.itemIndex;
	const results = new Results();

	// 2. Stop Before Spending: a run that could go over sends nothing.
	const mayCharge = toSend.filter((id) => !shown.has(id)).length;
	if (policy === 'stop' && mayCharge * cost > budget.headroom) {
		const what = `unlocking ${plural(mayCharge, 'contact')} at ${level} level`;
		const refusal = notEnoughError(node, budget, what, mayCharge * cost, 'Unlock What Fits');
		if (!continueOnFail) throw refusal;
		for (const id of queue) results.failures.set(id, refusal);
		queue.length = 0;
	}

	// 3. Calls of up to 100 ids, each cut to what the budget can still hold, in order.
	const stopped = await sendWithinBudget(this, budget, results, queue, { level, firstItemOf });
	await replayLost(this, budget, results);

	// 4. What the budget did not reach.
	if (stopped) for (const id of queue.splice(0)) results.failures.set(id, stopped);
	const notSent = new Set(queue);
	if (notSent.size > 0 && policy === 'stop') {
		const reached = reachedError(node, budget, plural(notSent.size, 'contact'));
		if (!continueOnFail) throw reached;
		for (const id of notSent) results.failures.set(id, reached);
	}

	// 5. One output item per wanted id, in input order.
	for (const entry of wanted) {
		const itemOutput = outcome.get(entry.itemIndex) ?? [];
		outcome.set(entry.itemIndex, itemOutput);
		const output = outputFor(this, items, entry, results, {
			skipped: isSkipped(entry),
			passedOver: notSent.has(entry.id) && policy === 'whatFits',
		});
		if (output) itemOutput.push(output);
	}

	const skippedCount = wanted.filter(isSkipped).length;
	this.addExecutionHints({
		message: `Unlocked ${plural(results.records.size, 'unique contact')} (${level}) in ${plural(results.calls, 'call')}: ${spentText(budget)}${notSent.size ? `; ${plural(notSent.size, 'contact')} not sent (Max Credits reached)` : ''}${
			skippedCount ? `; ${skippedCount} already unlocked and skipped` : ''
		}. Contacts you already held were returned free of charge.`,
		location: 'outputPane',
	});
	const output = [...outcome.keys()].sort((a, b) => a - b).flatMap((itemIndex) => outcome.get(itemIndex) ?? []);
	return simplifyOutput(this, withRunCharges(budget, output));
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
	const failure = entryError
		? asNodeError(
				context,
				new NodeApiError(context.getNode(), { id, ...entryError } as JsonObject, {
					message: `${entryError.message ?? 'Contact not found'} (contact ${id})`,
					description: `${entryError.code ?? 'not_found'}: no contact has this ID, so nothing was charged for it. The other contacts of this run were unlocked.`,
					httpCode: entryError.code === 'not_found' ? '404' : undefined,
					itemIndex,
				}),
				itemIndex,
			)
		: results.failures.get(id);
	if (!failure) return undefined;
	if (!context.continueOnFail()) throw asNodeError(context, failure, itemIndex);
	return errorItem(failure, pairedItem, { id });
}
