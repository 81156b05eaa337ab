/** Unlock's output: one item per contact an input item wants, in input order, paired with it. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { apiFailure } from '../../shared/client/failures';
import { skippedForBudget } from '../../shared/credits/budget';
import { asNodeError, errorItem } from '../../shared/items/items';
import type { Plan, Wanted } from './unlockPlan';

/** What the calls of a run brought back. */
export class Results {
	readonly records = new Map<string, IDataObject>();
	/** Ids the API reported per entry as unknown (nothing charged for them). */
	readonly missing = new Map<string, { code?: string; message?: string }>();
	readonly failures = new Map<string, Error>();
	/** A refused balance (402): every later call would be refused too. */
	refusedBalance?: Error;
}

/** The output items, grouped by input item in input order: its records, pass-throughs and errors. */
export function outputItems(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	plan: Plan,
	results: Results,
	{ refused, passedOver }: { refused: Map<number, Error>; passedOver: (id: string) => boolean },
): INodeExecutionData[] {
	const outcome = new Map<number, INodeExecutionData[]>();
	for (const [itemIndex, error] of refused) outcome.set(itemIndex, [errorItem(error, { item: itemIndex })]);
	for (const entry of plan.wanted) {
		const itemOutput = outcome.get(entry.itemIndex) ?? [];
		outcome.set(entry.itemIndex, itemOutput);
		const output = outputFor(context, items, entry, results, {
			skipped: plan.isSkipped(entry),
			passedOver: passedOver(entry.id),
		});
		if (output) itemOutput.push(output);
	}
	return [...outcome.keys()].sort((a, b) => a - b).flatMap((itemIndex) => outcome.get(itemIndex) ?? []);
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
	const failure = entryError ? notFoundError(context, id, entryError, itemIndex) : results.failures.get(id);
	if (!failure) return undefined;
	if (!context.continueOnFail()) throw asNodeError(context, failure, itemIndex);
	return errorItem(failure, pairedItem, { id });
}

/** An id the API reported as unknown in its answer: nothing was charged for it. */
function notFoundError(
	context: IExecuteFunctions,
	id: string,
	entryError: { code?: string; message?: string },
	itemIndex: number,
): Error {
	// A per-id `not_found` is the API's 404 for that id.
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
