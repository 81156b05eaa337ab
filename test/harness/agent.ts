/**
 * An AI agent's tool calls inside n8n-core's real `WorkflowExecute`, both ways n8n 2.41 runs them:
 * - `engine`: a stand-in agent node asks the engine to run the tool node (n8n's EngineRequest, as
 *   the Tools Agent does), round after round; each tool call is its own node execution.
 * - `langchain`: a stand-in agent takes the tool from n8n-core's `getInputConnectionData` (a
 *   LangChain tool made by `createNodeAsTool`) and invokes it, all calls of a round at once; each
 *   invocation runs the node's `execute` in its own context.
 * Either way the calls belong to one workflow execution.
 */
import { WorkflowExecute } from 'n8n-core';
import {
	NodeConnectionTypes,
	Workflow,
	createRunExecutionData,
	type EngineRequest,
	type EngineResponse,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypeDescription,
	type IRun,
} from 'n8n-workflow';

import {
	MapCredentialsHelper,
	MapNodeTypes,
	makeAdditionalData,
	manualExecutionHooks,
} from './engine';

const TOOL = 'Contact Data';
/** The type name of n8n's MCP Server Trigger. */
export const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';
let executions = 0;

/** Passes its input on: the agent's parent, which the engine needs to resume the agent. */
export const start: INodeType = {
	description: {
		displayName: 'Start',
		name: 'start',
		group: ['input'],
		version: 1,
		description: '',
		defaults: { name: 'Start' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	},
};

/** The node's description as n8n gives a node used as a tool: named "…Tool", with an ai_tool output. */
export function asToolType(nodeType: INodeType): INodeType {
	return {
		description: {
			...nodeType.description,
			name: `${nodeType.description.name}Tool`,
			inputs: [],
			outputs: [NodeConnectionTypes.AiTool],
		},
		methods: nodeType.methods,
		execute: nodeType.execute,
	};
}

/** Invokes the connected tool with every input of a round at once, round after round. */
function langchainAgentType(rounds: IDataObject[][]): INodeType {
	return {
		description: agentDescription,
		async execute(this: IExecuteFunctions) {
			const [tool] = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
				invoke(input: IDataObject): Promise<string>;
			}>;
			const answers: string[] = [];
			for (const round of rounds) {
				answers.push(
					...(await Promise.all(
						round.map(async (input) => await tool.invoke(input).catch(String)),
					)),
				);
			}
			return [[{ json: { answers } }]];
		},
	};
}

export const agentDescription: INodeTypeDescription = {
	displayName: 'Agent',
	name: 'agent',
	group: ['transform'],
	version: 1,
	description: '',
	defaults: { name: 'Agent' },
	inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.AiTool],
	outputs: [NodeConnectionTypes.Main],
	properties: [],
};

/** Asks for one round of calls of the tool per entry of `rounds`, then outputs nothing more. */
function engineAgentType(rounds: IDataObject[][]): INodeType {
	return toolsAgentType(rounds.map((round) => round.map((input) => ({ tool: TOOL, input }))));
}

/** One tool call of an agent: the tool node asked, with the model's arguments. */
export type ToolAsk = { tool: string; input: IDataObject };

/** An agent (as n8n's Tools Agent asks the engine) calling named tool nodes, one round after another. */
export function toolsAgentType(rounds: ToolAsk[][]): INodeType {
	return {
		description: agentDescription,
		async execute(this: IExecuteFunctions, response?: EngineResponse<{ round: number }>) {
			const round = response?.metadata?.round ?? 0;
			if (round >= rounds.length) return [[{ json: { rounds: round } }]];
			const request: EngineRequest<{ round: number; itemIndex: number }> = {
				actions: rounds[round].map(({ tool, input }, call) => ({
					actionType: 'ExecutionNodeAction',
					nodeName: tool,
					input,
					type: NodeConnectionTypes.AiTool,
					id: `call_${round}_${call}`,
					metadata: { round: round + 1, itemIndex: 0 },
				})),
				metadata: { round: round + 1, itemIndex: 0 },
			};
			return request as unknown as INodeExecutionData[][];
		},
	};
}

export interface ToolCall {
	/** The tool's output items, or its error (a plain object), in call order. */
	items: INodeExecutionData[];
	error: { message?: string; description?: string } | undefined;
}

export interface AgentRun {
	run: IRun;
	executionId: string;
	/** The tool's runs as the engine recorded them. */
	toolCalls: ToolCall[];
	/** The agent's output (with `langchain`: `{answers}`, what each tool call answered the agent). */
	agentItems: INodeExecutionData[];
}

/**
 * Runs one execution in which the agent calls the tool node (`toolType`, registered under a type
 * name ending in "Tool", as n8n names a node used as a tool) with each input of each round.
 */
export async function runAgent(options: {
	/** How the agent calls its tool (see above); `engine` by default. */
	way?: 'engine' | 'langchain';
	toolType: INodeType;
	toolParameters: INodeParameters;
	/** The tool node's version: 2 (what a new node gets) unless given. */
	typeVersion?: number;
	rounds: IDataObject[][];
	credentialTypes: ICredentialType[];
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/**
	 * As n8n's MCP Server Trigger runs a tool call: inside the webhook request, before an execution
	 * exists, so the tool's `getExecutionId()` is undefined.
	 */
	withoutExecutionId?: boolean;
	/** The item the agent (and so the tool) gets as input; `{}` unless given. */
	input?: IDataObject;
	/** The tool node's id ("tool" unless given): what a cap over time is counted per. */
	toolNodeId?: string;
	/**
	 * With `langchain`: the agent stands in for n8n's MCP Server Trigger (2.1), under its type name,
	 * so the tool's execute data is the trigger's, its item the request (`input`: `{ headers }`).
	 */
	mcpTrigger?: boolean;
}): Promise<AgentRun> {
	const executionId = `agent-exec-${++executions}`;
	const toolTypeName = `test.${options.toolType.description.name}Tool`;
	const nodes: INode[] = [
		{
			id: 'start',
			name: 'Start',
			type: 'test.start',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'agent',
			name: 'Agent',
			type: options.mcpTrigger ? MCP_TRIGGER : 'test.agent',
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		},
		{
			id: options.toolNodeId ?? 'tool',
			name: TOOL,
			type: toolTypeName,
			typeVersion: options.typeVersion ?? 2,
			position: [200, 200],
			parameters: options.toolParameters,
			credentials: Object.fromEntries(
				(options.toolType.description.credentials ?? []).map((credential) => [
					credential.name,
					{ id: '1', name: `${credential.name} test` },
				]),
			),
		},
	];
	const connections = {
		Start: { main: [[{ node: 'Agent', type: NodeConnectionTypes.Main, index: 0 }]] },
		[TOOL]: { ai_tool: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]] },
	};
	const workflow = new Workflow({
		id: 'wf-agent',
		nodes,
		connections,
		active: false,
		nodeTypes: new MapNodeTypes({
			'test.start': start,
			[options.mcpTrigger ? MCP_TRIGGER : 'test.agent']:
				options.way === 'langchain'
					? langchainAgentType(options.rounds)
					: engineAgentType(options.rounds),
			[toolTypeName]: asToolType(options.toolType),
		}),
		settings: { executionOrder: 'v1' },
	});
	const credentialsHelper = new MapCredentialsHelper(
		Object.fromEntries(options.credentialTypes.map((type) => [type.name, type])),
		options.credentials,
	);
	const hooks = manualExecutionHooks(executionId, {
		id: 'wf-agent',
		name: 'agent',
		nodes,
		connections,
	});
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: nodes[0], data: { main: [[{ json: options.input ?? {} }]] }, source: null },
			],
		},
	});
	const additionalData = makeAdditionalData(credentialsHelper, hooks);
	additionalData.executionId = options.withoutExecutionId ? undefined : executionId;
	const run = await new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	const toolCalls = (run.data.resultData.runData[TOOL] ?? []).map((task) => ({
		items: (task.data?.ai_tool?.[0] ?? task.data?.main?.[0] ?? []) as INodeExecutionData[],
		error: task.error as ToolCall['error'],
	}));
	const agentItems = (run.data.resultData.runData.Agent?.at(-1)?.data?.main?.[0] ??
		[]) as INodeExecutionData[];
	return { run, executionId, toolCalls, agentItems };
}
