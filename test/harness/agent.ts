/**
 * An AI agent's tool calls inside n8n-core's real `WorkflowExecute`: a stand-in agent node asks
 * the engine to run a tool node (n8n's EngineRequest, as the Tools Agent does), round after round.
 * The engine runs each tool call as its own node execution within one workflow execution, the way
 * n8n runs a node used as an agent tool.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
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

import { MapCredentialsHelper, MapNodeTypes, makeAdditionalData } from './engine';

const TOOL = 'Contact Data';
let executions = 0;

/** Passes its input on: the agent's parent, which the engine needs to resume the agent. */
class Start implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Start',
		name: 'start',
		group: ['input'],
		version: 1,
		description: '',
		defaults: { name: 'Start' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/** Asks for one round of tool calls per entry of `rounds`, then outputs nothing more. */
function agentType(rounds: IDataObject[][]): INodeType {
	return {
		description: {
			displayName: 'Agent',
			name: 'agent',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Agent' },
			inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.AiTool],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions, response?: EngineResponse<{ round: number }>) {
			const round = response?.metadata?.round ?? 0;
			if (round >= rounds.length) return [[{ json: { rounds: round } }]];
			const request: EngineRequest<{ round: number; itemIndex: number }> = {
				actions: rounds[round].map((input, call) => ({
					actionType: 'ExecutionNodeAction',
					nodeName: TOOL,
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
	toolCalls: ToolCall[];
}

/**
 * Runs one execution in which the agent calls the tool node (`toolType`, registered under a type
 * name ending in "Tool", as n8n names a node used as a tool) with each input of each round.
 */
export async function runAgent(options: {
	toolType: INodeType;
	toolParameters: INodeParameters;
	rounds: IDataObject[][];
	credentialTypes: ICredentialType[];
	credentials: Record<string, ICredentialDataDecryptedObject>;
}): Promise<AgentRun> {
	const executionId = `agent-exec-${++executions}`;
	const toolTypeName = `test.${options.toolType.description.name}Tool`;
	const nodes: INode[] = [
		{ id: 'start', name: 'Start', type: 'test.start', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: 'agent', name: 'Agent', type: 'test.agent', typeVersion: 1, position: [200, 0], parameters: {} },
		{
			id: 'tool',
			name: TOOL,
			type: toolTypeName,
			typeVersion: 1,
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
			'test.start': new Start(),
			'test.agent': agentType(options.rounds),
			[toolTypeName]: options.toolType,
		}),
		settings: { executionOrder: 'v1' },
	});
	const credentialsHelper = new MapCredentialsHelper(
		Object.fromEntries(options.credentialTypes.map((type) => [type.name, type])),
		options.credentials,
	);
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: 'wf-agent',
		name: 'agent',
		nodes,
		connections,
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	const additionalData = makeAdditionalData(credentialsHelper, hooks);
	additionalData.executionId = executionId;
	const run = await new WorkflowExecute(additionalData, 'manual', runExecutionData).processRunExecutionData(workflow);
	const toolCalls = (run.data.resultData.runData[TOOL] ?? []).map((task) => ({
		items: (task.data?.ai_tool?.[0] ?? task.data?.main?.[0] ?? []) as INodeExecutionData[],
		error: task.error as ToolCall['error'],
	}));
	return { run, executionId, toolCalls };
}
