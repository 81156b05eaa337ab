/**
 * A workflow of several nodes in one execution of n8n-core's real `WorkflowExecute`: a node run more
 * than once (several run indexes), or several tool nodes of an agent, each node with its own
 * credential (by credential id, as n8n stores them).
 */
import { WorkflowExecute } from 'n8n-core';
import {
	Workflow,
	createRunExecutionData,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IConnections,
	type IDataObject,
	type INode,
	type INodeCredentialsDetails,
	type INodeType,
	type IRun,
	type ITaskData,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import {
	MapCredentialsHelper,
	MapNodeTypes,
	makeAdditionalData,
	manualExecutionHooks,
} from './engine';

/** Each node's credential is the one its `credentials` entry names by id. */
class CredentialsById extends MapCredentialsHelper {
	constructor(
		private readonly typesByName: Record<string, ICredentialType>,
		private readonly byId: Record<string, ICredentialDataDecryptedObject>,
	) {
		super(typesByName, {});
	}
	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		name: string,
	) {
		const data = this.byId[nodeCredentials.id ?? ''];
		if (!data) throw new Error(`No test credentials given for id "${nodeCredentials.id}"`);
		const helper = new MapCredentialsHelper(this.typesByName, { [name]: data });
		return await helper.getDecrypted(additionalData, nodeCredentials, name);
	}
}

export interface WorkflowRun {
	run: IRun;
	/** A node's runs, one per run index, as the engine recorded them. */
	tasks(nodeName: string): ITaskData[];
}

let executions = 0;

/** Runs the workflow from its first node, which gets `input` as its items. */
export async function runWorkflow(options: {
	nodes: INode[];
	connections: IConnections;
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes: ICredentialType[];
	/** Credential data by credential id. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	input?: IDataObject[];
}): Promise<WorkflowRun> {
	const executionId = `workflow-exec-${++executions}`;
	const { nodes, connections } = options;
	const workflow = new Workflow({
		id: 'wf-workflow',
		nodes,
		connections,
		active: false,
		nodeTypes: new MapNodeTypes(options.nodeTypes),
		settings: { executionOrder: 'v1' },
	});
	const types = Object.fromEntries(options.credentialTypes.map((type) => [type.name, type]));
	const hooks = manualExecutionHooks(executionId, {
		id: 'wf-workflow',
		name: 'workflow',
		nodes,
		connections,
	});
	const additionalData = makeAdditionalData(new CredentialsById(types, options.credentials), hooks);
	additionalData.executionId = executionId;
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node: nodes[0],
					data: { main: [(options.input ?? [{}]).map((json) => ({ json }))] },
					source: null,
				},
			],
		},
	});
	const run = await new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	return { run, tasks: (nodeName) => run.data.resultData.runData[nodeName] ?? [] };
}

/** A node of the workflow at `x` (its id from its name). */
export function nodeOf(name: string, type: string, x: number, more: Partial<INode> = {}): INode {
	const id = name.toLowerCase().replace(/\W+/g, '-');
	return { id, name, type, typeVersion: 1, position: [x, 0], parameters: {}, ...more };
}
