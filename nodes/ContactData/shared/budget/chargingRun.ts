/**
 * A charging run (Unlock, Enrich) in n8n: its settings and budget read once, Stop Before Spending
 * and what the budget did not reach as errors, and the notice and totals of what it spent. The
 * rules themselves are ./rules; each call is sent by ./chargingCalls.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteData,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { CREDIT_COST, type UnlockLevel } from '../client/contract';
import { simplifyOutput } from '../items/simplify';
import {
	CAP_OVER_TIME_NAMES,
	capOverTimeOf,
	type CapOverTimeName,
} from '../parameters/capsOverTime';
import { levelOf, maxCreditsOf, optionParameter } from '../parameters/descriptions';
import type { Choice } from '../parameters/values';
import { plural, unique } from '../parameters/utilities';
import {
	CreditBudget,
	leftOf,
	mustStop,
	type Cap,
	type CreditLedger,
	type Tally,
	type WhenMaxCreditsReached,
} from './rules';
import { tallyOf } from './tallies';

export interface ChargingRun {
	level: UnlockLevel;
	/** The price of one contact at that level. */
	cost: number;
	budget: CreditBudget;
	policy: WhenMaxCreditsReached;
	/** The operation's name of the What Fits choice ("Unlock What Fits"). */
	whatFits: string;
}

/**
 * Read once per run: one level, one budget and one policy for all input items. The policy's
 * choices are the operation's own When Max Credits Is Reached parameter.
 */
export function chargingRunOf(
	context: IExecuteFunctions,
	whenReached: INodeProperties,
): ChargingRun {
	const level = levelOf(context, 0);
	const choices = whenReached.options as Choice[];
	const policy = optionParameter<WhenMaxCreditsReached>(
		context,
		whenReached.name,
		whenReached.displayName,
		0,
		choices,
		'stop',
	);
	const whatFits = choices.find(({ value }) => value === 'whatFits')!.name;
	return { level, cost: CREDIT_COST[level], budget: creditBudgetOf(context), policy, whatFits };
}

/**
 * Whether the node runs as an agent's tool: named "…Tool" by n8n, or said so by LangChain. n8n 1.x's
 * context has no isToolExecution: there the name alone tells.
 */
export function runsAsTool(context: IExecuteFunctions): boolean {
	const saysTool = typeof context.isToolExecution === 'function' && context.isToolExecution();
	return saysTool || context.getNode().type.endsWith('Tool');
}

const budgets = new WeakMap<IExecuteFunctions, CreditBudget>();

/**
 * This node run's budget, its ledger kept in the execution (n8n's flow context). As a tool, the
 * ledger is the execution's, shared by every Contact Data tool call in it, so an agent cannot spend
 * a Max Credits per call. On the canvas it is the node run's: Retry On Fail's tries share it (so a
 * lost call is replayed, not paid again), and a loop's next run starts afresh.
 */
export function creditBudgetOf(context: IExecuteFunctions): CreditBudget {
	let budget = budgets.get(context);
	if (budget) return budget;
	const tool = runsAsTool(context);
	const flow = context.getContext('flow');
	const ledger = tool
		? ((flow.contactDataCredits ??= { charged: 0, reserved: 0 }) as CreditLedger)
		: runLedgerOf(context, flow);
	budget = new CreditBudget(maxCreditsOf(context, 0), ledger, tool, capsOverTimeOf(context));
	budgets.set(context, budget);
	return budget;
}

/** The ledger of this node's run: the same for every try of the run, one node run kept at a time. */
function runLedgerOf(context: IExecuteFunctions, flow: IDataObject): CreditLedger {
	const runs = (flow.contactDataRuns ??= {}) as Record<
		string,
		{ run: number; ledger: CreditLedger }
	>;
	const run = Number(context.getWorkflowDataProxy(0).$runIndex ?? 0);
	const node = context.getNode().id;
	if (runs[node]?.run !== run) runs[node] = { run, ledger: { charged: 0, reserved: 0 } };
	return runs[node].ledger;
}

/** The type of n8n's MCP Server Trigger, the only node whose request names an MCP session. */
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * The MCP session id of the request n8n's MCP Server Trigger (2.1, Streamable HTTP) runs this tool
 * call for. n8n hands the trigger's request (`{ body, headers }`) as the tool's execute data: with
 * the trigger as its node, or, on a queue-mode worker, with the tool alone and nothing before it.
 * Never from an input item: any item may carry `headers` (a Webhook node's, a sheet's column).
 */
function sessionIdOf(context: IExecuteFunctions): string | undefined {
	if (!runsAsTool(context)) return undefined;
	const { node, source, data } = context.getExecuteData?.() ?? ({} as Partial<IExecuteData>);
	const onWorker =
		source === null && node?.name === context.getNode().name && context.getMode() === 'webhook';
	if (node?.type !== MCP_TRIGGER && !onWorker) return undefined;
	const request = data?.main?.[0]?.[0]?.json as { headers?: IDataObject } | undefined;
	const id = request?.headers?.['mcp-session-id'];
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The caps over time set on this node, counted in this process's memory (see docs/node.md). */
function capsOverTimeOf(context: IExecuteFunctions, now = Date.now()): Cap[] {
	const node = `${context.getWorkflow().id ?? ''}|${context.getNode().id}`;
	const perDay = capOverTimeOf(context, 'maxCreditsPerDay');
	const perSession = capOverTimeOf(context, 'maxCreditsPerSession');
	const session = perSession > 0 ? sessionIdOf(context) : undefined;
	const caps: Cap[] = [];
	if (perDay > 0)
		caps.push(capOf('maxCreditsPerDay', perDay, tallyOf(node, { now }), 'left_today'));
	if (session)
		caps.push(
			capOf('maxCreditsPerSession', perSession, tallyOf(node, { session }), 'left_in_session'),
		);
	return caps;
}

const capOf = (
	name: CapOverTimeName,
	max: number,
	tally: Tally,
	leftField: Cap['leftField'],
): Cap => ({
	label: CAP_OVER_TIME_NAMES[name],
	max,
	tally,
	leftField,
});

/** Who used what a cap counted before this run, and how to get past it (a model reads the message). */
const CAP_WORDS = {
	left_today: ['Earlier runs and calls of this node today', 'wait for the next day (UTC), or '],
	left_in_session: ['Earlier calls of this MCP session', 'or '],
	none: ['Earlier tool calls of this execution', ''],
};

/** Stop Before Spending: a refusal when the run's worst case may not fit (thrown without continueOnFail). */
export function stopBeforeSpending(
	context: IExecuteFunctions,
	run: ChargingRun,
	what: string,
	worstCase: number,
): NodeOperationError | undefined {
	const { budget, policy, whatFits } = run;
	if (!mustStop(policy, worstCase, budget.headroom)) return undefined;
	const cap = budget.tightest;
	const usedBefore = cap.tally.charged + cap.tally.reserved;
	const left = usedBefore > 0 ? ` with ${plural(leftOf(cap), 'credit')} left` : '';
	const [who, wait] = CAP_WORDS[cap.leftField ?? 'none'];
	const setWhatFits = `set When Max Credits Is Reached to ${whatFits}`;
	const raiseTo = `${cap.label} to ${worstCase + usedBefore}`;
	const remedy = `Ask for fewer contacts, ${wait}raise ${raiseTo}${cap.leftField ? '' : `, or ${setWhatFits}`}`;
	return refusal(
		context,
		`${cap.label} of ${cap.max} is not enough: ${what} could cost up to ${plural(worstCase, 'credit')}${left}. Nothing was sent and nothing was charged. ${remedy}.`,
		`${usedBefore > 0 ? `${who} already used ${usedBefore} of the ${cap.max}. ` : ''}Raise ${raiseTo}, or ${setWhatFits} to spend up to the budget and pass the rest through.`,
	);
}

/** What the budget did not reach (`notSentCount` of `unit`): under Stop Before Spending an error (thrown without continueOnFail). */
export function budgetReached(
	context: IExecuteFunctions,
	{ budget, policy }: ChargingRun,
	notSentCount: number,
	unit: string,
): NodeOperationError | undefined {
	if (policy !== 'stop' || notSentCount === 0) return undefined;
	const cap = budget.tightest;
	const runAgain = `Raise ${cap.label} and run again: contacts already unlocked come back free`;
	return refusal(
		context,
		`${cap.label} of ${cap.max} reached: ${plural(budget.chargedHere, 'credit')} charged${heldBackText(budget)}; ${plural(notSentCount, unit)} not sent. ${runAgain}`,
		`${runAgain} of charge, so nothing is paid twice.`,
	);
}

/** A budget refusal of the run: thrown without continueOnFail, else each item's error. */
function refusal(
	context: IExecuteFunctions,
	message: string,
	description: string,
): NodeOperationError {
	const error = new NodeOperationError(context.getNode(), message, { description });
	if (!context.continueOnFail()) throw error;
	return error;
}

/** An output that is a contact record (not an error, a no-match or an item passed over). */
export function isContactRecord(json: IDataObject): boolean {
	return (
		typeof json.id === 'string' && json.error === undefined && json.unlock_skipped === undefined
	);
}

/** An input item passed through because the budget did not reach it. */
export const skippedForBudget = (json: IDataObject): IDataObject => ({
	...json,
	unlock_skipped: 'budget',
});

/** The run's output: a notice of what was done and spent, the run's totals on every record, Simplify. */
export function finishRun(
	context: IExecuteFunctions,
	{ budget }: ChargingRun,
	output: INodeExecutionData[],
	notice: { done: string; notSent: number; unit: string; also?: string },
): INodeExecutionData[] {
	const notSent = notice.notSent
		? `; ${plural(notice.notSent, notice.unit)} not sent (Max Credits reached)`
		: '';
	const of = `of a ${budget.maxCredits} budget${budget.shared ? ' shared by the tool calls of this execution' : ''}`;
	const spent = `${plural(budget.chargedHere, 'credit')} charged ${of}${heldBackText(budget)}${impossibleText(budget)}`;
	context.addExecutionHints({
		message: `${notice.done}: ${spent}${notSent}${notice.also ?? ''}. A contact already unlocked comes back free.`,
		location: 'outputPane',
	});
	const totals = {
		credits_charged_in_run: budget.chargedHere,
		credits_remaining: budget.creditsRemaining,
	};
	return simplifyOutput(
		context,
		output.map((item) =>
			isContactRecord(item.json) ? { ...item, json: { ...item.json, ...totals } } : item,
		),
	);
}

/** Charges the contract rules out, which the run did not take (their worst case stays held back). */
function impossibleText({ impossibleCharges }: CreditBudget): string {
	if (impossibleCharges.length === 0) return '';
	const calls = impossibleCharges.length === 1 ? 'that call stays' : 'those calls stay';
	return `; the API reported an impossible charge (credits_charged: ${unique(impossibleCharges).slice(0, 3).join(', ')}) for ${plural(impossibleCharges.length, 'call')}, so the worst case of ${calls} counted against Max Credits`;
}

/** Credits still reserved for answers that were lost (they may have been charged). */
function heldBackText(budget: CreditBudget): string {
	if (budget.reservedHere <= 0) return '';
	return `, and ${budget.reservedHere} held back for answers that were lost${budget.impossibleCharges.length > 0 ? ' or unreadable' : ''} (the API may have charged them)`;
}
