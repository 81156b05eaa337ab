/**
 * Runs one node inside n8n-core's real `WorkflowExecute`: parameters and expressions, credentials,
 * `this.helpers.httpRequestWithAuthentication`, error wrapping and continueOnFail are n8n's own.
 * Only credential storage (a plain map) and lifecycle hooks are local.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	createRunExecutionData,
	isExpression,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IHttpRequestOptions,
	type IConnections,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRequestOptionsSimplified,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

export class MapNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}
	getByName(type: string) {
		const nodeType = this.types[type];
		if (!nodeType) throw new Error(`Unknown node type "${type}"`);
		return nodeType;
	}
	getByNameAndVersion(type: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	}
	getKnownTypes() {
		return {};
	}
}

/** Applies a credential type's `authenticate` block the way n8n's CredentialsHelper does. */
export class MapCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}
	private type(name: string) {
		const type = this.types[name];
		if (!type) throw new Error(`Unknown credential type "${name}"`);
		return type;
	}
	getParentTypes(name: string): string[] {
		return (this.types[name]?.extends ?? []).flatMap((parent) => [
			parent,
			...this.getParentTypes(parent),
		]);
	}
	isCredentialUsableByNode() {
		return true;
	}
	getCredentialsProperties(name: string) {
		return this.type(name).properties;
	}
	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, name: string) {
		if (!this.data[name]) throw new Error(`No test credentials given for "${name}"`);
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(name),
			this.data[name] as INodeParameters,
			true,
			false,
			null,
			null,
		);
		return {
			...(withDefaults as ICredentialDataDecryptedObject),
			...structuredClone(this.data[name]),
		};
	}
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			const resolve = (value: string) =>
				isExpression(value)
					? String(
							workflow!.expression.getSimpleParameterValue(
								node!,
								value,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						)
					: value;
			for (const [outerKey, inner] of Object.entries(authenticate.properties)) {
				const target = ((requestOptions as unknown as Record<string, Record<string, string>>)[
					outerKey
				] ??= {});
				for (const [key, value] of Object.entries(inner as Record<string, string>)) {
					target[resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}
	async preAuthentication() {
		return undefined;
	}
	async runPreAuthentication() {
		return undefined;
	}
	async getCredentials(): Promise<ICredentials> {
		throw new Error('getCredentials() is not used by these nodes');
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
}

const BASE = 'http://localhost:5678';

/** `additionalData` with valid URLs (the engine builds $execution.resumeUrl from them). */
export function makeAdditionalData(
	credentialsHelper: ICredentialsHelper,
	hooks: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks,
		executionId: 'exec-1',
		currentNodeExecutionIndex: 0,
		restApiUrl: `${BASE}/rest`,
		instanceBaseUrl: `${BASE}/`,
		formBaseUrl: `${BASE}/form`,
		formWaitingBaseUrl: `${BASE}/form-waiting`,
		formTestBaseUrl: `${BASE}/form-test`,
		webhookBaseUrl: `${BASE}/webhook`,
		webhookWaitingBaseUrl: `${BASE}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE}/webhook-test`,
		mcpBaseUrl: `${BASE}/mcp`,
		mcpTestBaseUrl: `${BASE}/mcp-test`,
		variables: {},
		executeWorkflow: async () => {
			throw new Error('executeWorkflow is not used by these nodes');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('task runners are not used by these nodes');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** n8n-core's lifecycle hooks for a manual execution of a workflow of these nodes. */
export function manualExecutionHooks(
	executionId: string,
	workflow: { id: string; name: string; nodes: INode[]; connections: IConnections },
): ExecutionLifecycleHooks {
	return new ExecutionLifecycleHooks('manual', executionId, {
		...workflow,
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
}

export interface RunNodeOptions {
	nodeType: INodeType | IVersionedNodeType;
	typeVersion?: number;
	parameters?: INodeParameters;
	credentialTypes?: ICredentialType[];
	/** Credential data keyed by credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	inputItems?: INodeExecutionData[];
	continueOnFail?: boolean;
	/**
	 * The node's Retry On Fail setting: n8n runs the node again, in the same execution, when it throws
	 * (or, with continueOnFail, when its first output item is an error). n8n keeps maxTries within 2–5
	 * and waitBetweenTries within 0–5,000 ms, and reads 0 as its default of 1,000 ms.
	 */
	retryOnFail?: { maxTries: number; waitBetweenTries: number };
	/** Cancels the execution when it settles, as the editor's Stop button does. */
	stopWhen?: Promise<unknown>;
	/** The node's id ('node-under-test' unless given): caps over time are counted per node. */
	nodeId?: string;
}

export interface NodeRun {
	run: IRun;
	/** Items of output 0 ([] when the node failed). */
	items: INodeExecutionData[];
	/** The node's error as the engine stored it (a plain object: assert on name, message, description). */
	error: (Record<string, unknown> & { message?: string; description?: string | null }) | undefined;
}

/** Each run is its own execution, with its own id, as in n8n. */
let executions = 0;

export async function runNode(options: RunNodeOptions): Promise<NodeRun> {
	const executionId = `exec-${++executions}`;
	const typeName = `test.${options.nodeType.description.name}`;
	const description = NodeHelpers.getVersionedNodeType(
		options.nodeType,
		options.typeVersion,
	).description;
	const version = Array.isArray(description.version)
		? Math.max(...description.version)
		: description.version;
	const node: INode = {
		id: options.nodeId ?? 'node-under-test',
		name: 'Node',
		type: typeName,
		typeVersion: options.typeVersion ?? version,
		position: [0, 0],
		parameters: options.parameters ?? {},
		credentials: Object.fromEntries(
			(description.credentials ?? []).map((credential) => [
				credential.name,
				{ id: '1', name: `${credential.name} test` },
			]),
		),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.retryOnFail ? { retryOnFail: true, ...options.retryOnFail } : {}),
	};
	const workflow = new Workflow({
		id: 'wf-test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new MapNodeTypes({ [typeName]: options.nodeType }),
	});
	const credentialsHelper = new MapCredentialsHelper(
		Object.fromEntries((options.credentialTypes ?? []).map((type) => [type.name, type])),
		options.credentials ?? {},
	);
	const hooks = manualExecutionHooks(executionId, {
		id: 'wf-test',
		name: 'test',
		nodes: [node],
		connections: {},
	});
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node, data: { main: [options.inputItems ?? [{ json: {} }]] }, source: null },
			],
		},
	});
	const additionalData = makeAdditionalData(credentialsHelper, hooks);
	additionalData.executionId = executionId;
	const execution = new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	void options.stopWhen?.then(() => execution.cancel());
	const run = await execution;
	const task = run.data.resultData.runData[node.name]?.[0];
	return {
		run,
		items: (task?.data?.main?.[0] ?? []) as INodeExecutionData[],
		error: (task?.error ?? run.data.resultData.error) as NodeRun['error'],
	};
}
