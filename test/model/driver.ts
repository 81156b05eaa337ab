/** Runs one scenario in n8n's engine against the fake API, and gathers each node run's outcome. */
import type { IDataObject, INodeExecutionData, INodeParameters, ITaskData } from 'n8n-workflow';

import { BULK, KNOWN, contactId, personEmail } from './accounts';
import type { FakeApi } from './fakeApi';
import { bulkOf, maxCreditsOf, type Scenario } from './scenario';
import { runAsTools, runOnCanvas, type Execution } from './workflow';

/** One run of a Contact Data node (a canvas run index, or one tool call), and what it gave. */
export interface NodeRunOutcome {
	/** The fake API's name for the run. */
	tag: string;
	apiKey: string;
	/** The contacts (unlock ids, or enrich emails) each input item asked for. */
	wanted: string[][];
	items: INodeExecutionData[];
	error?: { message?: string; description?: string | null };
	hints: string[];
	tool: boolean;
	/** The node, as the caps over time count it. */
	node: string;
	/** Its Max Credits (tool nodes may differ). */
	maxCredits: number;
	/** Its MCP session, if any. */
	session?: string;
}

/** What the invariants need of a run, by its tag: a tag may have no outcome (Stop). */
export interface RunOf {
	/** The node, as the caps over time count it. */
	node: string;
	/** The execution whose ledger and Max Credits it shares (an MCP call is its own). */
	execution: string;
	maxCredits: number;
	session?: string;
	tool: boolean;
	/** Requests the fake carried out before it began. */
	from: number;
}

/** The credential's Timeout (Seconds) in scenarios. */
export const TIMEOUT_S = 2;
let scenarios = 0;

function parametersOf(s: Scenario, tool: boolean, maxCredits = maxCreditsOf(s)): INodeParameters {
	const options: IDataObject = { skipAlreadyUnlocked: s.skipAlreadyUnlocked };
	if (s.version >= 2)
		Object.assign(options, {
			maxCreditsPerDay: s.maxCreditsPerDay,
			maxCreditsPerSession: s.maxCreditsPerSession,
		});
	if (s.operation === 'enrich') delete options.skipAlreadyUnlocked;
	const version1 =
		s.version !== 1
			? {}
			: s.operation === 'unlock'
				? {
						contactIds: tool
							? "={{ $fromAI('contact_ids', 'Contact IDs', 'string') }}"
							: '={{ $json.id }}',
					}
				: { email: tool ? "={{ $fromAI('email', 'Email', 'string') }}" : '={{ $json.email }}' };
	return {
		resource: 'contact',
		operation: s.operation,
		level: s.level,
		maxCredits,
		whenMaxCreditsReached: s.whenMaxCreditsReached,
		...version1,
		options: options as INodeParameters,
	};
}

const nameOf = (s: Scenario, n: number) =>
	s.operation === 'unlock' ? contactId(n) : personEmail(n);

function taskOutcome(
	task: ITaskData | undefined,
	base: Omit<NodeRunOutcome, 'items' | 'error' | 'hints'>,
): NodeRunOutcome {
	const data = task?.data?.ai_tool?.[0] ?? task?.data?.main?.[0] ?? [];
	return {
		...base,
		items: data as INodeExecutionData[],
		error: task?.error as NodeRunOutcome['error'],
		hints: (task?.hints ?? []).map((hint) => hint.message),
	};
}

/** Runs `s` against `fake`; each scenario has its own API keys and workflow id. */
export async function runScenario(
	fake: FakeApi,
	s: Scenario,
): Promise<{ outcomes: NodeRunOutcome[]; runs: Record<string, RunOf> }> {
	const id = ++scenarios;
	const keys = [`key-${id}-a`, `key-${id}-b`];
	const credentials = Object.fromEntries(
		keys.map((apiKey, c) => [`cred${c}`, { apiKey, baseUrl: fake.url, timeout: TIMEOUT_S }]),
	);
	const base = {
		workflowId: `wf-model-${id}`,
		credentials,
		version: s.version,
		continueOnFail: s.continueOnFail,
		tries: s.tries,
	};
	await fake.begin(s.faults, { midnightAfter: s.midnightAfter, stopAt: s.stopAt });
	fake.accountOf(keys[0]).hold(s.heldBefore.map(contactId), 'basic');
	if (s.where.kind === 'canvas')
		for (const { n, held } of s.where.items.filter((item) => item.held && !s.staleFlags))
			if (n < KNOWN) fake.accountOf(keys[0]).hold([contactId(n)], held!);
	const outcomes: NodeRunOutcome[] = [];
	const runs: Record<string, RunOf> = {};
	for (let execution = 0; execution < (s.executions ?? 1); execution++) {
		const e = { ...base, stopWhen: fake.stopPressed() };
		const marks = { fake, runs, prefix: `${execution}.` };
		const run =
			s.where.kind === 'canvas'
				? onCanvas(marks, s, e, keys)
				: s.where.mcp
					? overMcp(marks, s, e, keys, id)
					: asTools(marks, s, e, keys);
		outcomes.push(...(await run));
		// What the fake receives now was sent after the execution ended (after Stop).
		await fake.boundary(`${execution}.ended`);
	}
	return { outcomes, runs };
}

/** Where each run is marked: the fake API's tag for its requests, and the run's facts by tag. */
interface Marks {
	fake: FakeApi;
	runs: Record<string, RunOf>;
	/** The execution's, before the run's own ("0." then "r1", "t0"). */
	prefix: string;
}

function mark(
	{ fake, runs, prefix }: Marks,
	runOf: (run: number) => Omit<RunOf, 'execution' | 'from'>,
) {
	return async (run: number) => {
		const { tool } = runOf(run);
		const tag = `${prefix}${tool ? 't' : 'r'}${run}`;
		runs[tag] = { execution: prefix, ...runOf(run), from: fake.sent.length };
		await fake.boundary(tag);
	};
}

/** The node's runs on the canvas (a loop's runs) in one execution. */
async function onCanvas(
	marks: Marks,
	s: Scenario,
	e: Execution,
	keys: string[],
): Promise<NodeRunOutcome[]> {
	const where = s.where as Extract<Scenario['where'], { kind: 'canvas' }>;
	const items = where.items.map(({ n, held }) =>
		s.operation === 'unlock'
			? { id: contactId(n), ...(held ? { unlocked: true, level: held } : {}) }
			: { email: personEmail(n) },
	);
	const bulk = Array.from({ length: bulkOf(s) }, (_, i) => ({ id: contactId(BULK.from + i) }));
	const node = `${e.workflowId}-Contact Data`;
	const maxCredits = maxCreditsOf(s);
	const marked = mark(marks, () => ({ node, maxCredits, tool: false }));
	const inputs = [...items, ...bulk];
	const run = await runOnCanvas(e, parametersOf(s, false), inputs, where.runs, marked);
	const tasks = run.data.resultData.runData['Contact Data'] ?? [];
	const wanted = [...where.items.map(({ n }) => [nameOf(s, n)]), ...bulk.map(({ id }) => [id])];
	const tag = (k: number) => `${marks.prefix}r${k}`;
	return tasks.map((task, k) =>
		taskOutcome(task, { tag: tag(k), apiKey: keys[0], wanted, tool: false, node, maxCredits }),
	);
}

type ToolsWhere = Extract<Scenario['where'], { kind: 'tool' }>;

function toolNodesOf(s: Scenario) {
	const where = s.where as ToolsWhere;
	return where.credentials.map((c, t) => {
		const maxCredits = maxCreditsOf(s) + (where.extraMaxCredits?.[t] ?? 0);
		return {
			name: `Tool ${t}`,
			credential: `cred${c}`,
			parameters: parametersOf(s, true, maxCredits),
			maxCredits,
		};
	});
}

function callInput(s: Scenario, ns: number[]): IDataObject {
	return s.operation === 'unlock'
		? { contact_ids: ns.map(contactId).join(',') }
		: { email: personEmail(ns[0]) };
}

function toolOutcome(
	s: Scenario,
	e: Execution,
	keys: string[],
	tool: ReturnType<typeof toolNodesOf>[number],
	ns: number[],
	task: ITaskData | undefined,
	tag: string,
): NodeRunOutcome | undefined {
	if (!task) return undefined;
	const apiKey = keys[Number(tool.credential.slice(4))];
	const wanted = [s.operation === 'unlock' ? ns.map(contactId) : [personEmail(ns[0])]];
	const node = `${e.workflowId}-${tool.name}`;
	return taskOutcome(task, { tag, apiKey, wanted, tool: true, node, maxCredits: tool.maxCredits });
}

/** An agent's tool calls, one after another, in one execution. */
async function asTools(
	marks: Marks,
	s: Scenario,
	e: Execution,
	keys: string[],
): Promise<NodeRunOutcome[]> {
	const where = s.where as ToolsWhere;
	const tools = toolNodesOf(s);
	const calls = where.calls.map(({ tool, ns }) => ({
		tool: tools[tool].name,
		input: callInput(s, ns),
	}));
	const runOf = (call: number) => {
		const { name, maxCredits } = tools[where.calls[call].tool];
		return { node: `${e.workflowId}-${name}`, maxCredits, tool: true };
	};
	const run = await runAsTools(e, tools, calls, mark(marks, runOf));
	const prefix = marks.prefix;
	const seen = new Map<string, number>();
	return where.calls.flatMap(({ tool, ns }, call) => {
		const name = tools[tool].name;
		const index = seen.get(name) ?? 0;
		seen.set(name, index + 1);
		const task = run.data.resultData.runData[name]?.[index];
		return toolOutcome(s, e, keys, tools[tool], ns, task, `${prefix}t${call}`) ?? [];
	});
}

/** MCP calls: each its own execution, without an execution id, in its session (if any). */
async function overMcp(
	marks: Marks,
	s: Scenario,
	e: Execution,
	keys: string[],
	id: number,
): Promise<NodeRunOutcome[]> {
	const where = s.where as ToolsWhere;
	const [tool] = toolNodesOf(s);
	const node = `${e.workflowId}-${tool.name}`;
	const outcomes: NodeRunOutcome[] = [];
	for (const [call, { ns }] of where.calls.entries()) {
		const session = sessionOf(where.sessions ?? 1, id, call);
		const tag = `${marks.prefix}t${call}`;
		const marked = async () => {
			const { maxCredits } = tool;
			const from = marks.fake.sent.length;
			marks.runs[tag] = { node, execution: tag, maxCredits, session, tool: true, from };
			await marks.fake.boundary(tag);
		};
		const run = await runAsTools(
			{ ...e, withoutExecutionId: true },
			[tool],
			[{ tool: tool.name, input: callInput(s, ns) }],
			marked,
			{ session },
		);
		const task = run.data.resultData.runData[tool.name]?.[0];
		const outcome = toolOutcome(s, e, keys, tool, ns, task, tag);
		if (outcome) outcomes.push({ ...outcome, session });
	}
	return outcomes;
}

/** No session (an SSE client), one for every call, or two taken in turn. */
function sessionOf(sessions: 0 | 1 | 2, id: number, call: number): string | undefined {
	if (sessions === 0) return undefined;
	return sessions === 1 ? `session-${id}` : `session-${id}-${call % 2}`;
}
