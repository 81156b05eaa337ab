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
import { capsOverTimeOf, leftOf, type Cap, type Tally } from './capsOverTime';
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
export interface CreditLedger extends Tally {
	/**
	 * Reservations of calls whose answer stayed lost, by Idempotency-Key (part of `reserved`): the
	 * same call sent again later in the execution (an agent repeating a tool call) takes its
	 * reservation over, as the API replays it for free, instead of being refused by the cap.
	 */
	held?: Record<string, number>;
	/**
	 * What each settled Idempotency-Key was charged: the same key answered again (a tool call
	 * repeated, a retry) is a replay, charged nothing more, whether or not the API says so.
	 */
	settled?: Record<string, number>;
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
	/** Calls of this node run the API answered as replays (by its header, or a key already settled). */
	replayedHere = 0;
	/** The balance the API reported after this node run's last settled call (null before any). */
	creditsRemaining: number | null = null;
	/** Charges the API reported that the contract rules out, as reported (their worst case stays reserved). */
	readonly impossibleCharges: string[] = [];
	/** Max Credits first, then the caps over time: every reservation and charge counts against each. */
	readonly caps: Cap[];

	constructor(
		readonly maxCredits: number,
		private readonly ledger: CreditLedger = { charged: 0, reserved: 0 },
		/** Whether the ledger is shared by the tool calls of an execution. */
		readonly shared = false,
		capsOverTime: Cap[] = [],
	) {
		this.caps = [{ label: 'Max Credits', max: maxCredits, tally: ledger }, ...capsOverTime];
	}

	get charged(): number {
		return this.ledger.charged;
	}

	/** Worst cases of calls whose answer was lost (or is still awaited). */
	get reserved(): number {
		return this.ledger.reserved;
	}

	/** Credits that may still be reserved: what the tightest cap leaves. */
	get headroom(): number {
		return Math.min(...this.caps.map(leftOf));
	}

	/** The cap that leaves the least (Max Credits when several leave as little). */
	get tightest(): Cap {
		return this.caps.reduce((tightest, cap) => (leftOf(cap) < leftOf(tightest) ? cap : tightest));
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
		for (const { tally } of this.caps) tally.reserved += credits;
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
	 * from 0 to the worst case; a key already settled is a replay and counts nothing more. Any other
	 * charge is an unreadable answer: the worst case stays reserved and the run says so. Returns the
	 * charge taken, undefined for an impossible one.
	 */
	settle(reservation: Reservation, report: ChargeReport, replayed = false): number | undefined {
		const { credits_charged: charge, credits_remaining: remaining } = report;
		if (typeof remaining === 'number') this.creditsRemaining = remaining;
		if (typeof charge !== 'number' || !Number.isInteger(charge) || charge < 0 || charge > reservation.credits) {
			this.impossibleCharges.push(JSON.stringify(charge) ?? String(charge));
			return undefined;
		}
		const key = reservation.key;
		const settledBefore = key === undefined ? undefined : this.ledger.settled?.[key];
		if (replayed || settledBefore !== undefined) this.replayedHere++;
		const counted = settledBefore === undefined ? charge : 0;
		if (key !== undefined) (this.ledger.settled ??= {})[key] = settledBefore ?? charge;
		this.close(reservation);
		for (const { tally } of this.caps) tally.charged += counted;
		this.chargedHere += counted;
		return counted;
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
		for (const { tally } of this.caps) tally.reserved -= reservation.credits;
		this.reservedHere -= reservation.credits;
	}
}

/** The budget of each node run, so the tool answer reads what the run spent. */
const budgets = new WeakMap<IExecuteFunctions, CreditBudget>();

/**
 * The budget of this node run. A node run as an AI agent's tool shares one ledger with every
 * Contact Data tool call of the same execution (n8n runs each tool call as its own node run), so an
 * agent calling the tool fifty times cannot spend fifty budgets. The ledger lives in n8n's flow
 * context, which belongs to the execution: the next execution starts from nothing.
 */
export function creditBudgetOf(context: IExecuteFunctions): CreditBudget {
	let budget = budgets.get(context);
	if (budget) return budget;
	// An expression can give anything: without a number there is no ceiling to keep.
	const maxCredits = maxCreditsOf(context, 0);
	const capsOverTime = capsOverTimeOf(context);
	if (runsAsTool(context)) {
		const flow = context.getContext('flow');
		const ledger = (flow[TOOL_LEDGER_KEY] ??= { charged: 0, reserved: 0 }) as CreditLedger;
		budget = new CreditBudget(maxCredits, ledger, true, capsOverTime);
	} else budget = new CreditBudget(maxCredits, undefined, false, capsOverTime);
	budgets.set(context, budget);
	return budget;
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
 * invoked through LangChain also says so itself (the engine's own tool calls do not).
 */
export function runsAsTool(context: IExecuteFunctions): boolean {
	return context.isToolExecution() || context.getNode().type.endsWith('Tool');
}

/** How a model or a user gets past a cap: its own words for each cap. */
function remedyOf(cap: Cap, needed: number, fitsLabel?: string): string {
	const raise = `raise ${cap.label} to ${needed}`;
	if (cap.leftField === 'left_today') return `Ask for fewer contacts, wait for the next day (UTC), or ${raise}`;
	if (cap.leftField === 'left_in_session') return `Ask for fewer contacts, or ${raise}`;
	return `Ask for fewer contacts, ${raise}${fitsLabel ? `, or set When Max Credits Is Reached to ${fitsLabel}` : ''}`;
}

/** Stop Before Spending: the whole run could cost more than a cap allows, so nothing is sent. */
export function notEnoughError(
	node: INode,
	budget: CreditBudget,
	what: string,
	worstCase: number,
	fitsLabel: string,
): NodeOperationError {
	const cap = budget.tightest;
	const spentBefore = cap.tally.charged + cap.tally.reserved;
	const left = spentBefore > 0 ? ` with ${plural(leftOf(cap), 'credit')} left` : '';
	const remedy = remedyOf(cap, worstCase + spentBefore, cap === budget.caps[0] ? fitsLabel : undefined);
	return new NodeOperationError(
		node,
		`${cap.label} of ${cap.max} is not enough: ${what} could cost up to ${plural(worstCase, 'credit')}${left}. Nothing was sent and nothing was charged. ${remedy}.`,
		{
			description: `${spentBefore > 0 ? `${usedBefore(budget, cap)} already used ${spentBefore} of the ${cap.max}. ` : ''}Raise ${cap.label} to ${worstCase + spentBefore}, or set When Max Credits Is Reached to ${fitsLabel} to spend up to the budget and pass the rest through.`,
		},
	);
}

/** Who spent what a cap counted before this run. */
function usedBefore(budget: CreditBudget, cap: Cap): string {
	if (cap.leftField === 'left_today') return 'Earlier runs and calls of this node today';
	if (cap.leftField === 'left_in_session') return 'Earlier calls of this MCP session';
	return budget.shared ? 'Earlier tool calls of this execution' : 'This run';
}

/** Stop Before Spending, found out during the run (the API charged more than the input suggested, or an answer was lost). */
export function reachedError(node: INode, budget: CreditBudget, notSent: string): NodeOperationError {
	const cap = budget.tightest;
	return new NodeOperationError(
		node,
		`${cap.label} of ${cap.max} reached: ${plural(budget.chargedHere, 'credit')} charged${heldBackText(budget)}; ${notSent} not sent. Raise ${cap.label} and run again: contacts already unlocked come back free`,
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
