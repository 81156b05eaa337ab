/**
 * A charging run's output: each input item's outcome as an output or error item, the run's totals
 * on every record, Simplify, and a notice of what the run spent.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { restated } from '../client/failures';
import { asNodeError, errorItem } from '../items/items';
import { simplifyOutput } from '../items/simplify';
import { plural } from '../parameters/utilities';
import type { ChargingRun } from './chargingRun';
import { heldBackText, impossibleText, withMoney } from './runTexts';

/** An output that is a contact record (not an error, a no-match or an item passed over). */
export const isContactRecord = (json: IDataObject): boolean =>
	typeof json.id === 'string' && json.error === undefined && json.unlock_skipped === undefined;

export const skippedForBudget = (json: IDataObject): IDataObject => ({
	...json,
	unlock_skipped: 'budget',
});

/** What a run gives for one input item; `id` is the contact an error item names. */
export type Outcome = { itemIndex: number; outcome: IDataObject | Error; id?: string };

/** The run's output (the run's totals on every record), Simplify, and a notice of what it spent. */
export function finishRun(
	context: IExecuteFunctions,
	{ budget }: ChargingRun,
	outcomes: Outcome[],
	notice: { done: string; notSent: number; unit: string; also?: string },
): INodeExecutionData[] {
	const totals = {
		credits_charged_in_run: budget.run.charged,
		credits_remaining: budget.creditsRemaining,
	};
	const output = outcomes.map(({ itemIndex, outcome, id }) => {
		const pairedItem = { item: itemIndex };
		if (!(outcome instanceof Error))
			return { json: isContactRecord(outcome) ? { ...outcome, ...totals } : outcome, pairedItem };
		// A call's failure is each of its items' error, naming that item.
		const failure = restated(context, asNodeError(context, outcome, itemIndex), itemIndex);
		if (!context.continueOnFail()) throw withMoney(context, failure, itemIndex, budget);
		return errorItem(failure, pairedItem, id === undefined ? {} : { id });
	});
	const notSent = notice.notSent
		? `; ${plural(notice.notSent, notice.unit)} not sent (Max Credits reached)`
		: '';
	const of = `of a ${budget.maxCredits} budget${budget.shared ? ' shared by the tool calls of this execution' : ''}`;
	const spent = `${plural(budget.run.charged, 'credit')} charged ${of}${heldBackText(budget)}${impossibleText(budget)}`;
	context.addExecutionHints({
		message: `${notice.done}: ${spent}${notSent}${notice.also ?? ''}. A contact already unlocked comes back free.`,
		location: 'outputPane',
	});
	return simplifyOutput(context, output);
}
