/**
 * A scenario as one n8n execution (n8n-core's WorkflowExecute): on the canvas, a marker node before
 * each run of the Contact Data node (a loop's second run comes back through it); as a tool, a
 * stand-in agent asking for one tool call per round, marking each call first. The marker tells the
 * fake API which node run its requests belong to; n8n's helpers are n8n's own.
 */
import { WorkflowExecute } from 'n8n-core';
import {
	NodeConnectionTypes,
	Workflow,
	createRunExecutionData,
	type EngineRequest,
	type EngineResponse,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IRun,
} from 'n8n-workflow';

import { ContactDataApi } from '../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../nodes/ContactData/ContactData.node';
import { MCP_TRIGGER, agentDescription, asToolType, start } from '../harness/agent';
import {
	MapCredentialsHelper,
	MapNodeTypes,
	makeAdditionalData,
	manualExecutionHooks,
} from '../harness/engine';

/** Calls the marker `mark(run)` and passes `items` on while `more(run)`; counts its runs. */
function markerType(
	mark: (run: number) => Promise<void>,
	items: IDataObject[],
	runs: number,
): INodeType {
	let run = 0;
	return {
		description: { ...start.description, name: 'runMarker', displayName: 'Run Marker' },
		async execute(this: IExecuteFunctions) {
			const index = run++;
			if (index >= runs) return [[]];
			await mark(index);
			return [items.map((json) => ({ json }))];
		},
	};
}

/** Asks for `calls` one per round (each marked first), then ends. */
function agentType(
	mark: (call: number) => Promise<void>,
	calls: Array<{ tool: string; input: IDataObject }>,
): INodeType {
	return {
		description: agentDescription,
		async execute(this: IExecuteFunctions, response?: EngineResponse<{ call: number }>) {
			const call = response?.metadata?.call ?? 0;
			if (call >= calls.length) return [[{ json: { calls: call } }]];
			await mark(call);
			const request: EngineRequest<{ call: number; itemIndex: number }> = {
				actions: [
					{
						actionType: 'ExecutionNodeAction',
						nodeName: calls[call].tool,
						input: calls[call].input,
						type: NodeConnectionTypes.AiTool,
						id: `call_${call}`,
						metadata: { call: call + 1, itemIndex: 0 },
					},
				],
				metadata: { call: call + 1, itemIndex: 0 },
			};
			return request as unknown as INodeExecutionData[][];
		},
	};
}

/** As n8n's MCP Server Trigger runs a tool: the tool invoked inside the trigger, one call after another. */
function mcpTriggerType(mark: (call: number) => Promise<void>, inputs: IDataObject[]): INodeType {
	return {
		description: agentDescription,
		async execute(this: IExecuteFunctions) {
			const [tool] = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
				invoke(input: IDataObject): Promise<string>;
			}>;
			for (const [call, input] of inputs.entries()) {
				await mark(call);
				await tool.invoke(input).catch(String);
			}
			return [[{ json: {} }]];
		},
	};
}

/** A credential store that gives each node the credential its id names (one per API key). */
class CredentialsById extends MapCredentialsHelper {
	constructor(private readonly byId: Record<string, ICredentialDataDecryptedObject>) {
		super({ contactDataApi: new ContactDataApi() }, { contactDataApi: Object.values(byId)[0] });
	}
	override async getDecrypted(
		additionalData: unknown,
		nodeCredentials: { id: string | null },
		name: string,
	) {
		const data = this.byId[String(nodeCredentials.id)];
		return {
			...(await super.getDecrypted(additionalData, nodeCredentials, name)),
			...structuredClone(data),
		};
	}
}

export interface ToolNode {
	name: string;
	credential: string;
	parameters: INodeParameters;
}

export interface Execution {
	workflowId: string;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	version: number;
	continueOnFail: boolean;
	tries: number;
	/** As n8n's MCP Server Trigger runs a tool call: before an execution exists. */
	withoutExecutionId?: boolean;
	/** Stop is pressed when it settles, as in the editor. */
	stopWhen?: Promise<unknown>;
}

const CONTACT_DATA = new ContactData();
let executions = 0;

function contactDataNode(
	e: Execution,
	name: string,
	parameters: INodeParameters,
	credential: string,
	tool: boolean,
): INode {
	return {
		id: `${e.workflowId}-${name}`,
		name,
		type: tool ? 'test.contactDataTool' : 'test.contactData',
		typeVersion: e.version,
		position: [400, 0],
		parameters,
		credentials: { contactDataApi: { id: credential, name: credential } },
		...(e.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(e.tries > 1 ? { retryOnFail: true, maxTries: e.tries, waitBetweenTries: 1 } : {}),
	};
}

const node = (name: string, type: string, x: number): INode => ({
	id: name,
	name,
	type,
	typeVersion: 1,
	position: [x, 0],
	parameters: {},
});

async function execute(
	e: Execution,
	nodes: INode[],
	connections: Workflow['connectionsBySourceNode'],
	types: Record<string, INodeType>,
	input: IDataObject = {},
): Promise<IRun> {
	const executionId = `model-${++executions}`;
	const workflow = new Workflow({
		id: e.workflowId,
		nodes,
		connections,
		active: false,
		nodeTypes: new MapNodeTypes({
			'test.start': start,
			'test.contactData': CONTACT_DATA,
			'test.contactDataTool': asToolType(CONTACT_DATA),
			...types,
		}),
		settings: { executionOrder: 'v1' },
	});
	const hooks = manualExecutionHooks(executionId, {
		id: e.workflowId,
		name: 'model',
		nodes,
		connections,
	});
	const additionalData = makeAdditionalData(new CredentialsById(e.credentials), hooks);
	additionalData.executionId = e.withoutExecutionId ? undefined : executionId;
	const data = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: input }]] }, source: null }],
		},
	});
	const execution = new WorkflowExecute(additionalData, 'manual', data).processRunExecutionData(
		workflow,
	);
	void e.stopWhen?.then(() => execution.cancel());
	return await execution;
}

const main = (to: string) => ({ main: [[{ node: to, type: NodeConnectionTypes.Main, index: 0 }]] });

/** Start → Marker → Contact Data → Marker …: the node runs `runs` times on `items`. */
export async function runOnCanvas(
	e: Execution,
	parameters: INodeParameters,
	items: IDataObject[],
	runs: number,
	mark: (run: number) => Promise<void>,
): Promise<IRun> {
	const nodes = [
		node('Start', 'test.start', 0),
		node('Marker', 'test.runMarker', 200),
		contactDataNode(e, 'Contact Data', parameters, Object.keys(e.credentials)[0], false),
	];
	const connections = {
		Start: main('Marker'),
		Marker: main('Contact Data'),
		'Contact Data': main('Marker'),
	};
	return await execute(e, nodes, connections, { 'test.runMarker': markerType(mark, items, runs) });
}

/**
 * Start → Agent with the tool nodes; the agent makes `calls` one after another. Over MCP the agent
 * is n8n's MCP Server Trigger, its request with the session id (if any) in `headers`.
 */
export async function runAsTools(
	e: Execution,
	tools: ToolNode[],
	calls: Array<{ tool: string; input: IDataObject }>,
	mark: (call: number) => Promise<void>,
	mcp?: { session?: string },
): Promise<IRun> {
	const agent = node('Agent', mcp ? MCP_TRIGGER : 'test.agent', 200);
	const toolNodes = tools.map((t) => contactDataNode(e, t.name, t.parameters, t.credential, true));
	const connections: Workflow['connectionsBySourceNode'] = { Start: main('Agent') };
	for (const t of tools)
		connections[t.name] = {
			ai_tool: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]],
		};
	const agentImpl = mcp
		? mcpTriggerType(
				mark,
				calls.map((c) => c.input),
			)
		: agentType(mark, calls);
	const session = mcp?.session ? { 'mcp-session-id': mcp.session } : {};
	const input = mcp ? { headers: session } : {};
	return await execute(
		e,
		[node('Start', 'test.start', 0), agent, ...toolNodes],
		connections,
		{ [agent.type]: agentImpl },
		input,
	);
}
