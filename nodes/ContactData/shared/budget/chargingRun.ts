/**
 * A charging run (Unlock, Enrich) in n8n: its settings and budget read once, Stop Before Spending
 * and what the budget did not reach as errors, and its output with a notice of what it spent.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { mcpSessionIdOf, runsAsTool } from '../items/toolCall';
import { CREDIT_COST, UNLOCK_LEVELS, type UnlockLevel } from '../client/contract';
import { apiCredentialOf } from '../client/apiCredential';
import { now } from '../client/clock';
import { restated } from '../client/failures';
import { asNodeError, errorItem } from '../items/items';
import { simplifyOutput } from '../items/simplify';
import { levelOf, maxCreditsOf, optionParameter } from '../parameters/descriptions';
import { wholeNumber, type Choice } from '../parameters/values';
import { plural, unique } from '../parameters/utilities';
import { accountOf } from './account';
import { CreditBudget, newTally, tallyOf, type Cap, type Tally } from './ledger';

export interface ChargingRun {
	level: UnlockLevel;
	/** A contact held at this rank or above costs nothing. */
	rank: number;
	cost: number;
	budget: CreditBudget;
	policy: 'stop' | 'whatFits';
	/** The operation's name of its What Fits choice ("Unlock What Fits"). */
	whatFits: string;
}

/** A level's rank, from the lowest (1); 0 for one the contract does not name. */
export const rankOf = (level: unknown): number => UNLOCK_LEVELS.indexOf(level as UnlockLevel) + 1;

/** Read once per run, from the first item; the policy's choices are the operation's own parameter. */
export async function chargingRunOf(
	context: IExecuteFunctions,
	policyParameter: INodeProperties,
): Promise<ChargingRun> {
	const level = levelOf(context, 0);
	const { name, displayName } = policyParameter;
	const choices = policyParameter.options as Choice[];
	const policy = optionParameter<ChargingRun['policy']>(
		context,
		name,
		displayName,
		0,
		choices,
		'stop',
	);
	const whatFits = choices.find(({ value }) => value === 'whatFits')!.name;
	// A credential refused here is refused again by each call, as its items' errors.
	const credential = await apiCredentialOf(context).then(
		(known) => known,
		() => undefined,
	);
	const budget = creditBudgetOf(context, credential);
	return { level, rank: rankOf(level), cost: CREDIT_COST[level], budget, policy, whatFits };
}

const budgets = new WeakMap<IExecuteFunctions, CreditBudget>();

/**
 * This node run's budget. Its tally lives in n8n's flow context: on the canvas the node run's, so
 * Retry On Fail's tries share it and a loop's next run starts afresh; as a tool Max Credits counts
 * the execution's, shared by every tool call in it, so an agent cannot spend a Max Credits per call.
 * What the account holds, settled and lost is the execution's, whichever node or run spent it.
 */
export function creditBudgetOf(
	context: IExecuteFunctions,
	credential?: { baseUrl: string; keyHash: string },
): CreditBudget {
	const known = budgets.get(context);
	if (known) return known;
	const flow = context.getContext('flow');
	const runs = (flow.contactDataRuns ??= {}) as Record<string, { run: number; tally: Tally }>;
	const run = Number(context.getWorkflowDataProxy(0).$runIndex ?? 0);
	const node = context.getNode().id;
	const tool = runsAsTool(context);
	if (runs[node]?.run !== run) runs[node] = { run, tally: newTally() };
	const runTally = runs[node].tally;
	const max = maxCreditsOf(context, 0);
	const maxCap = { label: 'Max Credits', max, tally: tool ? executionTally(flow) : runTally };
	const overTime = capsOverTimeOf(context);
	const account = accountOf(flow, credential);
	const budget = new CreditBudget(max, runTally, account, () => [maxCap, ...overTime()], tool);
	budgets.set(context, budget);
	return budget;
}

const executionTally = (flow: IDataObject): Tally =>
	(flow.contactDataCredits ??= newTally()) as Tally;

export const CAPS_OVER_TIME = {
	maxCreditsPerDay: { label: 'Max Credits per Day', leftField: 'left_today' },
	maxCreditsPerSession: { label: 'Max Credits per MCP Session', leftField: 'left_in_session' },
} as const;

/**
 * The caps over time set on this node (from the first item), counted in this process's memory: a
 * call counts in the day (UTC) it is sent.
 */
function capsOverTimeOf(context: IExecuteFunctions): () => Cap[] {
	const node = `${context.getWorkflow().id ?? ''}|${context.getNode().id}`;
	const caps = Object.entries(CAPS_OVER_TIME).flatMap(([name, { label, leftField }]) => {
		const value = context.getNodeParameter(`options.${name}`, 0, 0);
		const max = wholeNumber({ context, itemIndex: 0 }, label, value, { min: 0 });
		const perSession = leftField === 'left_in_session';
		const session = perSession && max > 0 ? mcpSessionIdOf(context) : undefined;
		if (max === 0 || (perSession && !session)) return [];
		return [{ label, max, leftField, session }];
	});
	return () =>
		caps.map(({ session, ...cap }) => ({
			...cap,
			tally: tallyOf(node, session ? { session } : { now: now() }),
		}));
}

/** Who used what a cap counted before this run, and the wait that gets past it, if any. */
const CAP_WORDS = {
	left_today: ['Earlier runs and calls of this node today', 'wait for the next day (UTC)'],
	left_in_session: ['Earlier calls of this MCP session', ''],
	none: ['Earlier tool calls of this execution', ''],
	retries: ['Earlier tries of this node run (Retry On Fail)', ''],
};

/** "a, b, or c". */
const anyOf = (choices: string[]): string =>
	choices.length < 2
		? choices.join('')
		: `${choices.slice(0, -1).join(', ')}, or ${choices.at(-1)}`;

/**
 * Stop Before Spending: a refusal when the run's worst case may not fit. A model reads only an
 * error's message, so a tool's holds every remedy; on the canvas the message is what happened and
 * the first remedy, and the description the rest.
 */
export function stopBeforeSpending(
	context: IExecuteFunctions,
	run: ChargingRun,
	what: string,
	worstCase: number,
) {
	const { budget, whatFits } = run;
	if (run.policy !== 'stop' || worstCase <= budget.headroom) return undefined;
	const cap = budget.tightest;
	const usedBefore = cap.tally.charged + cap.tally.reserved;
	const [who, wait] = CAP_WORDS[cap.leftField ?? (budget.shared ? 'none' : 'retries')];
	const raise = `raise ${cap.label} to ${worstCase + usedBefore}`;
	const setWhatFits = cap.leftField ? '' : `set When Max Credits Is Reached to ${whatFits}`;
	const fewer = 'ask for fewer contacts';
	const used = usedBefore > 0 ? `${who} already used ${usedBefore} of the ${cap.max}.` : '';
	const passesOn =
		setWhatFits && `${whatFits} spends up to the budget and passes the rest through.`;
	const cost = `could cost up to ${plural(worstCase, 'credit')}`;
	if (runsAsTool(context)) {
		const left = usedBefore > 0 ? ` with ${plural(budget.headroom, 'credit')} left` : '';
		const remedy = anyOf([fewer, wait, raise, setWhatFits].filter(Boolean));
		return refusal(
			context,
			`${cap.label} of ${cap.max} is not enough: ${what} ${cost}${left}. ${nothingSent(budget)} ${capitalized(remedy)}.`,
			// The description adds what the message does not say.
			sentences(used, passesOn),
		);
	}
	const left = usedBefore > 0 ? ` (${budget.headroom} left)` : '';
	const more = budget.run.charged + budget.run.reserved === 0 ? '' : 'more ';
	const others = anyOf([fewer, wait, setWhatFits].filter(Boolean));
	return refusal(
		context,
		`${cap.label} of ${cap.max} is not enough for up to ${plural(worstCase, 'credit')}${left}, so nothing ${more}was sent. ${capitalized(raise)}.`,
		sentences(
			`${capitalized(what)} ${cost}.`,
			more ? `This run's earlier tries: ${moneyText(budget)}.` : 'Nothing was charged.',
			used,
			`You can also ${others}.`,
			passesOn,
		),
	);
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const sentences = (...texts: string[]) => texts.filter(Boolean).join(' ');

/** Before a try sends anything: what the run's earlier tries (Retry On Fail) charged, if any. */
function nothingSent(budget: CreditBudget): string {
	if (budget.run.charged + budget.run.reserved === 0)
		return 'Nothing was sent and nothing was charged.';
	return `Nothing more was sent. This run's earlier tries: ${moneyText(budget)}.`;
}

/** What the run charged (all its tries), holds back for answers it could not read, and why. */
const moneyText = (budget: CreditBudget): string =>
	`${plural(budget.run.charged, 'credit')} charged${heldBackText(budget)}${impossibleText(budget)}`;

/** What the budget did not reach, as an error under Stop Before Spending. */
export function budgetReached(
	context: IExecuteFunctions,
	run: ChargingRun,
	notSent: number,
	unit: string,
) {
	if (run.policy !== 'stop' || notSent === 0) return undefined;
	const { label, max } = run.budget.tightest;
	const notSentText = `${plural(notSent, unit)} not sent`;
	const free = 'contacts already unlocked come back free';
	if (runsAsTool(context))
		return refusal(
			context,
			`${label} of ${max} reached: ${moneyText(run.budget)}; ${notSentText}. Raise ${label} and run again: ${free}.`,
		);
	const charged = plural(run.budget.run.charged, 'credit');
	return refusal(
		context,
		`${label} of ${max} reached: ${charged} charged; ${notSentText}. Raise ${label} and run again.`,
		`This run: ${moneyText(run.budget)}. ${capitalized(free)}.`,
	);
}

/** A refusal of the whole run: thrown without continueOnFail, else each item's error. */
function refusal(context: IExecuteFunctions, message: string, description = '') {
	const error = new NodeOperationError(context.getNode(), message, {
		description: description || undefined,
	});
	if (!context.continueOnFail()) throw error;
	return error;
}

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

/** The error that ends a run says what the run charged, unless it already does (a refusal). */
export function withMoney(
	context: IExecuteFunctions,
	failure: ReturnType<typeof asNodeError>,
	itemIndex: number,
	budget: CreditBudget,
) {
	const { charged, reserved } = budget.run;
	if (charged + reserved === 0) return failure; // nothing to tell: its own words say not charged
	const free = charged > 0 ? '; run it again and what it charged for comes back free' : '';
	return restated(context, failure, itemIndex, `This run: ${moneyText(budget)}${free}`);
}

function impossibleText({ impossibleCharges, overcharge }: CreditBudget): string {
	const over =
		overcharge === undefined
			? ''
			: `; the API reported an impossible charge (credits_charged: ${overcharge}) above its call's worst case: it is held back as reported (the API may have charged it), and no further call was sent`;
	if (impossibleCharges.length === 0) return over;
	const calls = impossibleCharges.length === 1 ? 'that call stays' : 'those calls stay';
	return `; the API reported an impossible charge (credits_charged: ${unique(impossibleCharges).slice(0, 3).join(', ')}) for ${plural(impossibleCharges.length, 'call')}, so the worst case of ${calls} counted against Max Credits${over}`;
}

function heldBackText(budget: CreditBudget): string {
	if (budget.run.reserved <= 0) return '';
	return `, and ${budget.run.reserved} held back for answers that were lost${budget.impossibleCharges.length > 0 || budget.overcharge !== undefined ? ' or unreadable' : ''} (the API may have charged them)`;
}
