/**
 * The steps Unlock and Enrich share, around what each sends: the run's settings read once, Stop
 * Before Spending up front, what the budget did not reach, and the notice and totals of what the run
 * spent. Each call is sent by the charging driver (chargingDriver.ts).
 */
import type { IExecuteFunctions, INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import {
	creditBudgetOf,
	creditCostOf,
	notEnoughError,
	policyOf,
	reachedError,
	spentText,
	type CreditBudget,
	type WhenMaxCreditsReached,
} from './budget';
import { withRunCharges } from './charges';
import type { UnlockLevel } from '../client/contract';
import { simplifyOutput } from '../items/simplify';
import { plural } from '../parameters/values';

/** What a charging run reads once for all its input items. */
export interface ChargingRun {
	level: UnlockLevel;
	/** The price of one contact at that level. */
	cost: number;
	budget: CreditBudget;
	policy: WhenMaxCreditsReached;
	/** The operation's name of the What Fits choice ("Unlock What Fits"), for the refusal's advice. */
	whatFits: string;
}

/** Read once per run: one level, one budget and one policy for all input items. */
export function chargingRunOf(context: IExecuteFunctions, whatFits: string): ChargingRun {
	const { level, cost } = creditCostOf(context);
	const budget = creditBudgetOf(context);
	return { level, cost, budget, policy: policyOf(context, whatFits), whatFits };
}

/**
 * Stop Before Spending: a run whose worst case does not fit the budget sends nothing. The refusal
 * stops the node, or under continueOnFail is returned for every item; undefined when the run may go.
 */
export function stopBeforeSpending(
	context: IExecuteFunctions,
	{ budget, policy, whatFits }: ChargingRun,
	what: string,
	worstCase: number,
): NodeOperationError | undefined {
	if (policy !== 'stop' || worstCase <= budget.headroom) return undefined;
	const refusal = notEnoughError(context.getNode(), budget, what, worstCase, whatFits);
	if (!context.continueOnFail()) throw refusal;
	return refusal;
}

/**
 * What the budget did not reach (`notSent`, in words): under Stop Before Spending an error that stops
 * the node, or under continueOnFail is returned for those items; under What Fits undefined (they pass
 * through marked).
 */
export function budgetReached(
	context: IExecuteFunctions,
	{ budget, policy }: ChargingRun,
	notSent: string,
): NodeOperationError | undefined {
	if (policy !== 'stop') return undefined;
	const reached = reachedError(context.getNode(), budget, notSent);
	if (!context.continueOnFail()) throw reached;
	return reached;
}

/**
 * The run's output: the notice under it says what was done and spent, every contact record gets the
 * run's totals, and Simplify applies.
 */
export function finishRun(
	context: IExecuteFunctions,
	{ budget }: ChargingRun,
	output: INodeExecutionData[],
	notice: { done: string; notSent: number; unit: string; also?: string },
): INodeExecutionData[] {
	const notSent = notice.notSent ? `; ${plural(notice.notSent, notice.unit)} not sent (Max Credits reached)` : '';
	context.addExecutionHints({
		message: `${notice.done}: ${spentText(budget)}${notSent}${notice.also ?? ''}. Contacts you already held were returned free of charge.`,
		location: 'outputPane',
	});
	return simplifyOutput(context, withRunCharges(budget, output));
}
