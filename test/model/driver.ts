/** Runs one scenario in n8n's engine against the fake API, and gathers each node run's outcome. */
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	IRun,
	ITaskData,
} from 'n8n-workflow';

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
}

/** The credential's Timeout (Seconds) in scenarios. */
export const TIMEOUT_S = 2;
let scenarios = 0;

function parametersOf(s: Scenario, tool: boolean): INodeParameters {
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
		maxCredits: maxCreditsOf(s),
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
): Promise<{ run: IRun; outcomes: NodeRunOutcome[] }> {
	const id = ++scenarios;
	const keys = [`key-${id}-a`, `key-${id}-b`];
	const credentials = Object.fromEntries(
		keys.map((apiKey, c) => [`cred${c}`, { apiKey, baseUrl: fake.url, timeout: TIMEOUT_S }]),
	);
	const e: Execution = {
		workflowId: `wf-model-${id}`,
		credentials,
		version: s.version,
		continueOnFail: s.continueOnFail,
		tries: s.tries,
	};
	await fake.begin(s.faults);
	fake.accountOf(keys[0]).hold(s.heldBefore.map(contactId), 'basic');
	const mark = (prefix: string) => async (run: number) => fake.boundary(`${prefix}${run}`);
	const { where } = s;
	if (where.kind === 'canvas') {
		const flagged = where.items.filter((item) => item.held && !s.staleFlags && item.n < KNOWN);
		for (const { n, held } of flagged) fake.accountOf(keys[0]).hold([contactId(n)], held!);
		const items = where.items.map(({ n, held }) =>
			s.operation === 'unlock'
				? { id: contactId(n), ...(held ? { unlocked: true, level: held } : {}) }
				: { email: personEmail(n) },
		);
		const bulk = Array.from({ length: bulkOf(s) }, (_, i) => ({ id: contactId(BULK.from + i) }));
		const run = await runOnCanvas(
			e,
			parametersOf(s, false),
			[...items, ...bulk],
			where.runs,
			mark('r'),
		);
		const tasks = run.data.resultData.runData['Contact Data'] ?? [];
		const wanted = [...where.items.map(({ n }) => [nameOf(s, n)]), ...bulk.map(({ id }) => [id])];
		const node = `${e.workflowId}-Contact Data`;
		return {
			run,
			outcomes: tasks.map((task, k) =>
				taskOutcome(task, { tag: `r${k}`, apiKey: keys[0], wanted, tool: false, node }),
			),
		};
	}
	const tools = where.credentials.map((c, t) => ({
		name: `Tool ${t}`,
		credential: `cred${c}`,
		parameters: parametersOf(s, true),
	}));
	const calls = where.calls.map(({ tool, ns }) => ({
		tool: tools[tool].name,
		input:
			s.operation === 'unlock'
				? { contact_ids: ns.map(contactId).join(',') }
				: { email: personEmail(ns[0]) },
	}));
	const session = where.mcp ? `session-${id}` : undefined;
	const run = await runAsTools(e, tools, calls, mark('t'), session);
	const seen = new Map<string, number>();
	const outcomes = where.calls.map(({ tool, ns }, call) => {
		const name = tools[tool].name;
		const index = seen.get(name) ?? 0;
		seen.set(name, index + 1);
		const task = run.data.resultData.runData[name]?.[index];
		if (!task) return undefined;
		const apiKey = keys[Number(tools[tool].credential.slice(4))];
		const wanted = [s.operation === 'unlock' ? ns.map(contactId) : [personEmail(ns[0])]];
		return taskOutcome(task, {
			tag: `t${call}`,
			apiKey,
			wanted,
			tool: true,
			node: `${e.workflowId}-${name}`,
		});
	});
	return { run, outcomes: outcomes.filter((o): o is NodeRunOutcome => o !== undefined) };
}
