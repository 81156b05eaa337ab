import { randomUUID } from 'node:crypto';
import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import { CreditBudget } from '../../shared/budget';
import { RunCharges } from '../../shared/charges';
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
import { contactIdsParameter, levelParameter, maxCreditsParameter } from '../../shared/descriptions';
import { asNodeError, errorItem } from '../../shared/items';
import { simplifyOutput, simplifyParameters } from '../../shared/simplify';
import { apiRequest } from '../../shared/transport';
import { checkBody, checkContactIds, chunk, toContactIds, unique } from '../../shared/values';

const showFor = { show: { resource: ['contact'], operation: ['unlock'] } };

export const description: INodeProperties[] = [
	contactIdsParameter(showFor, 'The contacts to unlock; by default the ID field of a search result.'),
	levelParameter(showFor),
	maxCreditsParameter(showFor),
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

function alreadyHeld(json: IDataObject, id: string, level: UnlockLevel): boolean {
	if (json.id !== id || json.unlocked !== true) return false;
	const heldLevel = json.level as UnlockLevel | undefined;
	// A preview says only "unlocked": it is held at basic level at least.
	const rank = heldLevel && UNLOCK_LEVELS.includes(heldLevel) ? LEVEL_RANK[heldLevel] : 0;
	return rank >= LEVEL_RANK[level];
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const continueOnFail = this.continueOnFail();
	const level = this.getNodeParameter('level', 0, 'basic') as UnlockLevel;
	const budget = new CreditBudget(node, this.getNodeParameter('maxCredits', 0, 100) as number);
	const skipHeld = this.getNodeParameter('options.skipAlreadyUnlocked', 0, false) as boolean;

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

	const skipped = new Set<string>();
	if (skipHeld) {
		for (const { itemIndex, id } of wanted) {
			if (alreadyHeld(items[itemIndex].json, id, level)) skipped.add(`${itemIndex}|${id}`);
		}
	}
	const toSend = unique(
		wanted.filter(({ itemIndex, id }) => !skipped.has(`${itemIndex}|${id}`)).map(({ id }) => id),
	);

	// Contacts the input shows as held at this level come back free: they do not count against the budget.
	const knownHeld = new Set(
		wanted.filter(({ itemIndex, id }) => alreadyHeld(items[itemIndex].json, id, level)).map(({ id }) => id),
	);
	const worstCase = (ids: string[]) => ids.filter((id) => !knownHeld.has(id)).length;

	// Without continueOnFail a budget stop fails the whole run and its output: find that out before
	// the first call, so no credits go to a run that cannot finish.
	if (!continueOnFail && toSend.length > 0) {
		const mayCharge = worstCase(toSend);
		budget.reserve(
			mayCharge * CREDIT_COST[level],
			`unlocking ${mayCharge} contacts at ${level} level`,
			wanted.find((entry) => entry.id === toSend[0])?.itemIndex,
		);
	}

	// 2. Unlock the unique ids, 100 per call, within the budget.
	const records = new Map<string, IDataObject>();
	const failures = new Map<string, Error>();
	/** Ids the API reported per entry as unknown (nothing charged for them). */
	const missing = new Map<string, { code?: string; message?: string }>();
	let calls = 0;
	const charges = new RunCharges();
	let stopped: Error | undefined;
	for (const ids of chunk(toSend, LIMITS.idsPerUnlock)) {
		const firstItem = wanted.find((entry) => entry.id === ids[0])?.itemIndex;
		if (stopped) {
			for (const id of ids) failures.set(id, stopped);
			continue;
		}
		try {
			const mayCharge = worstCase(ids);
			budget.reserve(mayCharge * CREDIT_COST[level], `the next call (${mayCharge} contacts at ${level} level)`, firstItem);
			const body = checkBody(this, unlockRequestSchema, { ids, level }, firstItem ?? 0, {
				ids: 'Contact IDs',
				level: 'Level',
			});
			calls++;
			const { body: answer } = await (apiRequest<UnlockResponse>).call(this, {
				method: 'POST',
				path: PATHS.unlock,
				body: body as IDataObject,
				// The same key on every attempt: a retried call is answered from the first and charged once.
				idempotencyKey: randomUUID(),
				schema: unlockResponseSchema,
				itemIndex: firstItem,
			});
			budget.charge(answer.credits_charged);
			charges.note(answer);
			for (const entry of answer.contacts as IDataObject[]) {
				const id = String(entry.id);
				const entryError = entry.error as { code?: string; message?: string } | undefined;
				if (entryError) missing.set(id, entryError);
				else records.set(id, entry);
			}
		} catch (error) {
			const failure = asNodeError(this, error, firstItem);
			if (!continueOnFail) throw failure;
			for (const id of ids) failures.set(id, failure);
			// A refused budget or balance refuses every later call too: stop sending.
			const code = failure instanceof NodeApiError ? failure.httpCode : undefined;
			if (code === '402' || failure.message.startsWith('Max Credits budget')) stopped = failure;
		}
	}

	// 3. One output item per wanted id, in input order.
	for (const { itemIndex, id } of wanted) {
		const itemOutput = outcome.get(itemIndex) ?? [];
		outcome.set(itemIndex, itemOutput);
		const record = records.get(id);
		if (skipped.has(`${itemIndex}|${id}`)) {
			itemOutput.push({
				json: { ...items[itemIndex].json, unlock_skipped: 'already_unlocked' },
				pairedItem: { item: itemIndex },
			});
			continue;
		}
		if (record) {
			itemOutput.push({ json: { ...record }, pairedItem: { item: itemIndex } });
			continue;
		}
		const entryError = missing.get(id);
		const failure = entryError
			? new NodeApiError(node, { id, ...entryError } as JsonObject, {
					message: `${entryError.message ?? 'Contact not found'} (contact ${id}) [item ${itemIndex}]`,
					description: `${entryError.code ?? 'not_found'}: no contact has this ID, so nothing was charged for it. The other contacts of this run were unlocked.`,
					httpCode: entryError.code === 'not_found' ? '404' : undefined,
					itemIndex,
				})
			: failures.get(id);
		if (!failure) continue;
		if (!continueOnFail) throw asNodeError(this, failure, itemIndex);
		itemOutput.push(errorItem(failure, { item: itemIndex }, { id }));
	}

	this.addExecutionHints({
		message: `Unlocked ${records.size} unique contacts (${level}) in ${calls} calls: ${budget.spent} credits charged of a ${budget.maxCredits} budget${skipped.size ? `; ${skipped.size} already unlocked and skipped` : ''}. Contacts you already held were returned free of charge.`,
		location: 'outputPane',
	});
	const output = [...outcome.keys()].sort((a, b) => a - b).flatMap((itemIndex) => outcome.get(itemIndex) ?? []);
	return simplifyOutput(this, charges.onItems(output));
}
