/**
 * The Max Credits ceiling of a charging run (Unlock, Enrich). Before each call the node reserves
 * what the call could cost at most and sends only when that fits; the answer's `credits_charged`
 * then replaces the reservation. A call whose answer was lost keeps its worst case reserved until
 * a replay with the same idempotency key reports the real charge. So the credits charged never
 * exceed Max Credits, whatever the network or the input items say.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
} from 'n8n-workflow';

import { CREDIT_COST, type UnlockLevel } from '../client/contract';
import { levelOf, maxCreditsOf, optionParameter } from '../parameters/descriptions';
import { plural, unique } from '../parameters/values';

/** What the node does when the run may cost more than Max Credits. */
export type WhenMaxCreditsReached = 'stop' | 'whatFits';

/** What the API reports for a charging call: its charge and the account's balance after it (checked when settled). */
export interface ChargeReport {
	credits_charged?: unknown;
	credits_remaining?: unknown;
}

/** Credits counted against Max Credits: charged as the API reported, and reserved for calls not settled. */
export interface CreditLedger {
	charged: number;
	reserved: number;
	/**
	 * Reservations of calls whose answer stayed lost, by Idempotency-Key (part of `reserved`): the
	 * same call sent again later in the execution (an agent repeating a tool call) takes its
	 * reservation over, as the API replays it for free, instead of being refused by the cap.
	 */
	held?: Record<string, number>;
}

/** The worst case held for one call until its answer settles it. */
export interface Reservation {
	credits: number;
	open: boolean;
	/** The call's Idempotency-Key. */
	key?: string;
}

/** Where the tool calls of one execution keep their shared ledger (n8n's execution-scoped flow context). */
const TOOL_LEDGER_KEY = 'contactDataCredits';

export class CreditBudget {
	/** Credits charged by this node run (the ledger may also hold other tool calls of the execution). */
	chargedHere = 0;
	/** Credits this node run holds reserved (for answers that were lost, at the end of a run). */
	reservedHere = 0;
	/** The balance the API reported after this node run's last settled call (null before any). */
	creditsRemaining: number | null = null;
	/** Charges the API reported that the contract rules out, as reported (their worst case stays reserved). */
	readonly impossibleCharges: string[] = [];

	constructor(
		readonly maxCredits: number,
		private readonly ledger: CreditLedger = { charged: 0, reserved: 0 },
		/** Whether the ledger is shared by the tool calls of an execution. */
		readonly shared = false,
	) {}

	get charged(): number {
		return this.ledger.charged;
	}

	/** Worst cases of calls whose answer was lost (or is still awaited). */
	get reserved(): number {
		return this.ledger.reserved;
	}

	/** Credits that may still be reserved. */
	get headroom(): number {
		return Math.max(0, this.maxCredits - this.ledger.charged - this.ledger.reserved);
	}

	/**
	 * Holds `credits` for a call about to be sent; undefined when they do not fit. A call whose
	 * answer stayed lost earlier in the execution (the same key) takes its reservation over.
	 */
	reserve(credits: number, key?: string): Reservation | undefined {
		const held = key === undefined ? undefined : this.ledger.held?.[key];
		if (held !== undefined) {
			delete this.ledger.held?.[key as string];
			this.reservedHere += held;
			return { credits: held, open: true, key };
		}
		if (credits > this.headroom) return undefined;
		this.ledger.reserved += credits;
		this.reservedHere += credits;
		return { credits, open: true, key };
	}

	/** Whether a call with this key holds a reservation from earlier in the execution. */
	holds(key: string): boolean {
		return this.ledger.held?.[key] !== undefined;
	}

	/** Credits held by earlier lost calls of the execution, each (the calls they may be taken over by). */
	heldCredits(): number[] {
		return Object.values(this.ledger.held ?? {});
	}

	/**
	 * The API reported what the call charged: that replaces the worst case, if it is a whole number
	 * from 0 to the worst case. Any other charge is an unreadable answer: the worst case stays
	 * reserved and the run says so. Returns the charge taken, undefined for an impossible one.
	 */
	settle(reservation: Reservation, report: ChargeReport): number | undefined {
		const { credits_charged: charge, credits_remaining: remaining } = report;
		if (typeof remaining === 'number') this.creditsRemaining = remaining;
		if (typeof charge !== 'number' || !Number.isInteger(charge) || charge < 0 || charge > reservation.credits) {
			this.impossibleCharges.push(JSON.stringify(charge) ?? String(charge));
			return undefined;
		}
		this.close(reservation);
		this.ledger.charged += charge;
		this.chargedHere += charge;
		return charge;
	}

	/** A call whose answer stayed lost: its reservation is kept for the same call sent again later. */
	holdForReplay(reservation: Reservation): void {
		if (!reservation.open || reservation.key === undefined) return;
		(this.ledger.held ??= {})[reservation.key] = reservation.credits;
	}

	/** The API refused the call (a 4xx answer): nothing was charged. */
	release(reservation: Reservation): void {
		this.close(reservation);
	}

	private close(reservation: Reservation): void {
		if (!reservation.open) return;
		reservation.open = false;
		this.ledger.reserved -= reservation.credits;
		this.reservedHere -= reservation.credits;
	}
}

/**
 * The budget of this node run. A node run as an AI agent's tool shares one ledger with every
 * Contact Data tool call of the same execution (n8n runs each tool call as its own node run), so an
 * agent calling the tool fifty times cannot spend fifty budgets. The ledger lives in n8n's flow
 * context, which belongs to the execution: the next execution starts from nothing.
 */
export function creditBudgetOf(context: IExecuteFunctions): CreditBudget {
	// An expression can give anything: without a number there is no ceiling to keep.
	const maxCredits = maxCreditsOf(context, 0);
	if (!runsAsTool(context)) return new CreditBudget(maxCredits);
	const flow = context.getContext('flow');
	const ledger = (flow[TOOL_LEDGER_KEY] ??= { charged: 0, reserved: 0 }) as CreditLedger;
	return new CreditBudget(maxCredits, ledger, true);
}

/** When Max Credits Is Reached, read once per run and checked (an expression can give anything). */
export function policyOf(context: IExecuteFunctions, whatFitsName: string): WhenMaxCreditsReached {
	const choices = [
		{ name: 'Stop Before Spending', value: 'stop' },
		{ name: whatFitsName, value: 'whatFits' },
	];
	return optionParameter<WhenMaxCreditsReached>(context, 'whenMaxCreditsReached', 'When Max Credits Is Reached', 0, choices, 'stop');
}

/** The price of a contact at `level`, read once per run; a level by expression is checked first. */
export function creditCostOf(context: IExecuteFunctions): { level: UnlockLevel; cost: number } {
	const level = levelOf(context, 0);
	return { level, cost: CREDIT_COST[level] };
}

/**
 * Whether the node runs as an agent's tool. n8n names a node used as a tool "<name>Tool"; a tool
 * invoked through LangChain also says so itself (the engine's own tool calls do not). n8n 1.x's
 * context has no isToolExecution: there the name alone tells.
 */
export function runsAsTool(context: IExecuteFunctions): boolean {
	const saysTool = typeof context.isToolExecution === 'function' && context.isToolExecution();
	return saysTool || context.getNode().type.endsWith('Tool');
}

/** Stop Before Spending: the whole run could cost more than Max Credits, so nothing is sent. */
export function notEnoughError(
	node: INode,
	budget: CreditBudget,
	what: string,
	worstCase: number,
	fitsLabel: string,
): NodeOperationError {
	const spentBefore = budget.charged + budget.reserved;
	return new NodeOperationError(
		node,
		`Max Credits of ${budget.maxCredits} is not enough: ${what} could cost up to ${plural(worstCase, 'credit')}. Nothing was sent and nothing was charged`,
		{
			description: `${spentBefore > 0 ? `Earlier tool calls of this execution already used ${spentBefore} of the ${budget.maxCredits}. ` : ''}Raise Max Credits to ${worstCase + spentBefore}, or set When Max Credits Is Reached to ${fitsLabel} to spend up to the budget and pass the rest through.`,
		},
	);
}

/** Stop Before Spending, found out during the run (the API charged more than the input suggested, or an answer was lost). */
export function reachedError(node: INode, budget: CreditBudget, notSent: string): NodeOperationError {
	return new NodeOperationError(
		node,
		`Max Credits of ${budget.maxCredits} reached: ${plural(budget.chargedHere, 'credit')} charged${heldBackText(budget)}; ${notSent} not sent`,
		{
			description:
				'Raise Max Credits and run again: contacts already unlocked come back free of charge, so nothing is paid twice.',
		},
	);
}

/** What the run spent, in plain words, for the notice under the output. */
export function spentText(budget: CreditBudget): string {
	const of = `of a ${budget.maxCredits} budget${budget.shared ? ' shared by the tool calls of this execution' : ''}`;
	return `${plural(budget.chargedHere, 'credit')} charged ${of}${heldBackText(budget)}${impossibleText(budget)}`;
}

/** Charges the contract rules out, which the run did not take (their worst case stays held back). */
function impossibleText({ impossibleCharges }: CreditBudget): string {
	if (impossibleCharges.length === 0) return '';
	const shown = unique(impossibleCharges).slice(0, 3).join(', ');
	return `; the API reported an impossible charge (credits_charged: ${shown}) for ${plural(impossibleCharges.length, 'call')}, so the worst case of ${impossibleCharges.length === 1 ? 'that call stays' : 'those calls stays'} counted against Max Credits`;
}

/** Credits still reserved for answers that were lost (they may have been charged). */
function heldBackText(budget: CreditBudget): string {
	return budget.reservedHere > 0
		? `, and ${budget.reservedHere} held back for answers that were lost${budget.impossibleCharges.length > 0 ? ' or unreadable' : ''} (the API may have charged them)`
		: '';
}

/** An input item passed through because the budget did not reach it. */
export function skippedForBudget(json: IDataObject): IDataObject {
	return { ...json, unlock_skipped: 'budget' };
}
