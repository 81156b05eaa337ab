/**
 * The steps Unlock and Enrich share, around what each sends: the run's settings read once, Stop
 * Before Spending up front, each call sent under a reservation of the budget, what the budget did
 * not reach, and the notice and totals of what the run spent.
 */
import type { IExecuteFunctions, INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import {
	certainlyNotCharged,
	creditBudgetOf,
	creditCostOf,
	notEnoughError,
	policyOf,
	reachedError,
	spentText,
	type ChargeReport,
	type CreditBudget,
	type Reservation,
	type WhenMaxCreditsReached,
} from './budget';
import { withRunCharges } from './charges';
import type { UnlockLevel } from '../client/contract';
import { asNodeError } from '../items/items';
import { simplifyOutput } from '../items/simplify';
import { apiRequest, type ApiRequest } from '../client/transport';
import { editorFieldNames } from '../parameters/fieldNames';
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
 * Sends one charging call (or replays it: the key is the same) and settles its reservation with the
 * charge the API reports. A refusal (4xx) releases it: nothing was charged. Any other failure keeps
 * the worst case reserved, since the API may have charged it.
 */
export async function sendChargingCall<T extends ChargeReport>(
	context: IExecuteFunctions,
	budget: CreditBudget,
	reservation: Reservation,
	request: ApiRequest<T> & { idempotencyKey: string },
): Promise<T> {
	try {
		const { body: answer } = await (apiRequest<T>).call(context, { ...request, fieldNames: editorFieldNames });
		budget.settle(reservation, answer);
		return answer;
	} catch (error) {
		if (certainlyNotCharged(error)) budget.release(reservation);
		throw asNodeError(context, error, request.itemIndex);
	}
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
