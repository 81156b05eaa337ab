/** A charging run (Unlock, Enrich) in n8n: its settings and budget, read once. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { mcpSessionIdOf, runsAsTool } from '../items/toolCall';
import { CREDIT_COST, UNLOCK_LEVELS, type UnlockLevel } from '../client/contract';
import { apiCredentialOf } from '../client/apiCredential';
import { now } from '../client/clock';
import { levelOf, maxCreditsOf, optionParameter } from '../parameters/descriptions';
import { wholeNumber, type Choice } from '../parameters/values';
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

/** This node run's budget, if it has one yet. */
export const knownBudgetOf = (context: IExecuteFunctions) => budgets.get(context);

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
