/**
 * Plays n8n's part for one workflow holding one webhook trigger: activation and deactivation
 * through n8n-core's own `HookContext`, and an HTTP endpoint on 127.0.0.1 for the trigger's
 * production and test URLs that hands each request (raw body and headers) to the trigger's
 * `webhook()` through n8n-core's own `WebhookContext`, runs the execution it starts through
 * n8n-core's `WorkflowExecute` (the trigger's `execute()`, as a worker does), then answers with what
 * the node decided, the way n8n 2.41.1 does (`onReceived`: 200 once an execution is started).
 *
 * What n8n keeps in its database is modelled by a `Database` (see database.ts): every hook and
 * every request works on a fresh `Workflow` built from its static data, and changed static data is
 * saved back afterwards, as n8n's WorkflowStaticDataService does (except where n8n 2.41.1 loses it,
 * see `savesStaticDataOfStartedExecutions`). A "restart" is therefore simply the next call, and
 * another n8n process is another TriggerHost on the same Database (`anotherProcess`).
 */
import { randomUUID } from 'node:crypto';

import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import {
	NodeHelpers,
	Workflow,
	createRunExecutionData,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IWebhookData,
	type IWebhookResponseData,
	type IWorkflowExecuteAdditionalData,
	type WebhookSetupMethodNames,
} from 'n8n-workflow';

import {
	listenLocally,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type LocalServer,
	type ServerResponse,
} from '../support/httpServer.cjs';
import { Database, connectDatabase } from './database';
import { MapCredentialsHelper, MapNodeTypes, makeAdditionalData } from './engine';

const NODE_NAME = 'Trigger';

export interface TriggerHostOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentialTypes: ICredentialType[];
	/** Credential data keyed by credential type name. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
}

/** One HTTP request to a trigger URL and what was answered. */
export interface ReceivedRequest {
	url: 'production' | 'test' | 'unknown';
	eventId: string | undefined;
	status: number;
	body: unknown;
	/** The items of the execution the request started; undefined when it started none. */
	items?: INodeExecutionData[];
	/** What the trigger passed on to the workflow in that execution (its `execute()` output). */
	passedOn?: INodeExecutionData[];
	/** The answer was lost on purpose (socket destroyed), as by a network failure. */
	dropped: boolean;
	/** The request as received, to replay or alter it. */
	headers: IncomingHttpHeaders;
	rawBody: Buffer;
}

type Mode = { test?: boolean };

/**
 * n8n 2.41.1's answer once an `onReceived` webhook started an execution
 * (webhook-on-received-response-extractor.js): the description's `responseData` (default
 * "firstEntryJson", sent as that text), else the node's `webhookResponse`.
 */
function onReceivedAnswer(responseData: unknown, result: IWebhookResponseData): unknown {
	const data = responseData === undefined ? 'firstEntryJson' : responseData;
	if (data === 'noData') return undefined;
	if (data) return data;
	return result.webhookResponse ?? { message: 'Workflow was started' };
}

function serialisable(staticData: IDataObject): IDataObject {
	return JSON.parse(JSON.stringify(staticData)) as IDataObject;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/**
 * The subset of express's Request and Response that n8n hands to `webhook()`, built from node's
 * own objects the way n8n's body parser prepares them (`rawBody`, `contentType`, parsed `body`).
 */
function expressLike(
	request: IncomingMessage,
	response: ServerResponse,
	rawBody: Buffer,
	body: unknown,
	record: ReceivedRequest,
) {
	const contentType = (request.headers['content-type'] ?? '').split(';')[0].trim();
	const req = Object.assign(request, {
		rawBody,
		body,
		contentType,
		encoding: 'utf-8' as BufferEncoding,
		params: {},
		query: {},
		readRawBody: async () => {},
		header: (name: string) => request.headers[name.toLowerCase()],
	});
	const res = Object.assign(response, {
		status(code: number) {
			response.statusCode = code;
			return res;
		},
		json(value: unknown) {
			record.body = value;
			response.setHeader('content-type', 'application/json');
			response.end(JSON.stringify(value));
			return res;
		},
		send(value: unknown) {
			if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value))
				return res.json(value);
			record.body = value;
			response.end(value === undefined ? undefined : String(value));
			return res;
		},
	});
	return { req, res };
}

export class TriggerHost {
	/** What n8n's database holds for the workflow, shared with `anotherProcess()` hosts. */
	readonly database: Database;
	/** Static data of a "Listen for test event" registration (n8n keeps it with the registration). */
	testStaticData: IDataObject | undefined;
	parameters: INodeParameters;
	/** Credential data by credential type name; change it to model an edited credential. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** n8n's public base URL when it differs from where this host listens (WEBHOOK_URL). */
	publicBaseUrl: string | undefined;
	readonly requests: ReceivedRequest[] = [];
	readonly webhookId: string;
	/** The next this-many answers are lost after the node decided (the sender sees no response). */
	dropAnswers = 0;
	/**
	 * n8n 2.41.1 loses static data changed by a webhook call that starts an execution: LiveWebhooks
	 * saves it only if `__dataChanged` is still set, but WorkflowRunner.establishContextForPersistence
	 * first builds another Workflow around the same static data object, which resets the flag
	 * (observed in a real n8n 2.41.1). Set true to model an n8n that saves it.
	 */
	savesStaticDataOfStartedExecutions = false;
	/**
	 * Whether started executions are run (the trigger's `execute()`); off, a test of `webhook()`
	 * alone counts started executions (`startedExecutions()`) without paying for each run.
	 */
	runsExecutions = true;

	private productionActive = false;
	private server: LocalServer | undefined;
	private baseUrl = 'http://127.0.0.1:5678';
	private readonly nodeTypeName = 'test.contactDataTrigger';

	constructor(
		private readonly options: TriggerHostOptions,
		shared?: { database: Database; webhookId: string },
	) {
		this.parameters = structuredClone(options.parameters);
		this.credentials = structuredClone(options.credentials);
		this.database = shared?.database ?? new Database();
		this.webhookId = shared?.webhookId ?? randomUUID();
	}

	/** The static data as n8n's database holds it between requests and restarts. */
	get savedStaticData(): IDataObject {
		return this.database.staticData;
	}

	set savedStaticData(staticData: IDataObject) {
		this.database.staticData = staticData;
	}

	/**
	 * Another n8n process (a webhook processor, or main after a restart) of the same workflow:
	 * same database and webhook path, its own memory, given as the node type loaded afresh
	 * (`jest.isolateModules`). It serves the production URL once `listen()`ed.
	 */
	anotherProcess(nodeType: INodeType): TriggerHost {
		const host = new TriggerHost(
			{ ...this.options, nodeType },
			{ database: this.database, webhookId: this.webhookId },
		);
		host.parameters = structuredClone(this.parameters);
		host.productionActive = this.productionActive;
		return host;
	}

	async listen(): Promise<void> {
		await connectDatabase(this.database);
		this.server = await listenLocally((request, response) => {
			this.handle(request, response).catch((error: unknown) => {
				response.statusCode = 500;
				response.end(String(error));
			});
		});
		this.baseUrl = this.server.url;
	}

	async close(): Promise<void> {
		await this.server?.close();
	}

	webhookUrl({ test = false }: Mode = {}): string {
		return `${this.publicBaseUrl ?? this.baseUrl}/${test ? 'webhook-test' : 'webhook'}/${this.webhookId}/webhook`;
	}

	/** Executions in which the trigger passed an event on to the workflow, by URL kind. */
	executions(url: 'production' | 'test' = 'production'): INodeExecutionData[][] {
		return this.requests.filter((r) => r.url === url && r.passedOn?.length).map((r) => r.passedOn!);
	}

	/** Every execution started, including those whose trigger passed nothing on. */
	startedExecutions(url: 'production' | 'test' = 'production'): number {
		return this.requests.filter((r) => r.url === url && r.items).length;
	}

	/** What the node keeps for itself in the saved static data. */
	nodeStaticData(): IDataObject {
		return (this.savedStaticData[`node:${NODE_NAME}`] ?? {}) as IDataObject;
	}

	/**
	 * n8n's activation (WebhookService.createWebhookIfNotExists): `checkExists`, then `create`
	 * when it answers false; the static data is saved afterwards. With `test`, it is "Listen for
	 * test event": the test URL, and static data kept with the registration, not saved.
	 */
	async activate({ test = false }: Mode = {}): Promise<{ existed: boolean }> {
		const workflow = this.workflow(
			test ? structuredClone(this.savedStaticData) : this.savedStaticData,
		);
		const existed = await this.runHook(workflow, 'checkExists', { test });
		if (!existed) await this.runHook(workflow, 'create', { test });
		if (test) this.testStaticData = serialisable(workflow.staticData);
		else {
			this.save(workflow);
			this.productionActive = true;
		}
		return { existed };
	}

	/** n8n's deactivation (WebhookService.deleteWebhook); the static data is saved afterwards. */
	async deactivate({ test = false }: Mode = {}): Promise<boolean> {
		const staticData = test ? (this.testStaticData ?? {}) : this.savedStaticData;
		const workflow = this.workflow(staticData);
		if (test) this.testStaticData = undefined;
		else this.productionActive = false;
		const result = await this.runHook(workflow, 'delete', { test });
		if (!test) this.save(workflow);
		return result;
	}

	private workflow(staticData: IDataObject): Workflow {
		const description = this.options.nodeType.description;
		const node: INode = {
			id: 'trigger-node',
			name: NODE_NAME,
			type: this.nodeTypeName,
			typeVersion: Array.isArray(description.version)
				? Math.max(...description.version)
				: description.version,
			position: [0, 0],
			webhookId: this.webhookId,
			parameters: structuredClone(this.parameters),
			credentials: Object.fromEntries(
				(description.credentials ?? []).map((credential) => [
					credential.name,
					{ id: '1', name: `${credential.name} test` },
				]),
			),
		};
		return new Workflow({
			id: this.database.workflowId,
			nodes: [node],
			connections: {},
			active: true,
			// n8n builds each Workflow from the database row; the Workflow may not alter our copy.
			staticData: structuredClone(staticData),
			nodeTypes: new MapNodeTypes({ [this.nodeTypeName]: this.options.nodeType }),
		});
	}

	private additionalData(): IWorkflowExecuteAdditionalData {
		const credentialsHelper = new MapCredentialsHelper(
			Object.fromEntries(this.options.credentialTypes.map((type) => [type.name, type])),
			this.credentials,
		);
		const hooks = new ExecutionLifecycleHooks('webhook', 'exec-1', {
			id: this.database.workflowId,
			name: 'trigger test',
			nodes: [],
			connections: {},
			active: true,
			isArchived: false,
			activeVersionId: null,
			createdAt: new Date(),
			updatedAt: new Date(),
		} as never);
		return {
			...makeAdditionalData(credentialsHelper, hooks),
			webhookBaseUrl: `${this.publicBaseUrl ?? this.baseUrl}/webhook`,
			webhookTestBaseUrl: `${this.publicBaseUrl ?? this.baseUrl}/webhook-test`,
		} as IWorkflowExecuteAdditionalData;
	}

	private webhookData(
		workflow: Workflow,
		additionalData: IWorkflowExecuteAdditionalData,
		test: boolean,
	) {
		const node = workflow.getNode(NODE_NAME)!;
		const webhookDescription = this.options.nodeType.description.webhooks![0];
		return {
			httpMethod: 'POST',
			node: node.name,
			path: NodeHelpers.getNodeWebhookPath(
				this.database.workflowId,
				node,
				String(webhookDescription.path),
			),
			webhookDescription,
			workflowId: this.database.workflowId,
			workflowExecuteAdditionalData: additionalData,
			...(test ? { isTest: true } : {}),
		} as IWebhookData;
	}

	private async runHook(
		workflow: Workflow,
		method: WebhookSetupMethodNames,
		{ test = false }: Mode,
	) {
		const additionalData = this.additionalData();
		const node = workflow.getNode(NODE_NAME)!;
		const hook = this.options.nodeType.webhookMethods?.default?.[method];
		if (!hook) throw new Error(`The trigger has no webhookMethods.default.${method}`);
		const context = new HookContext(
			workflow,
			node,
			additionalData,
			test ? 'manual' : 'trigger',
			test ? 'manual' : 'activate',
			this.webhookData(workflow, additionalData, test),
		);
		return (await hook.call(context)) as boolean;
	}

	private save(workflow: Workflow): void {
		if ((workflow.staticData as { __dataChanged?: boolean }).__dataChanged) {
			this.savedStaticData = serialisable(workflow.staticData);
		}
	}

	/**
	 * The execution a webhook call started, as a worker runs it: a Workflow built afresh from the
	 * database, the trigger as start node with the webhook's items (n8n's prepareExecutionData).
	 */
	private async runExecution(
		workflowData: INodeExecutionData[][],
		test: boolean,
	): Promise<INodeExecutionData[]> {
		const workflow = this.workflow(test ? (this.testStaticData ?? {}) : this.savedStaticData);
		const node = workflow.getNode(NODE_NAME)!;
		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node, data: { main: workflowData }, source: null }] },
		});
		const run = await new WorkflowExecute(
			this.additionalData(),
			test ? 'manual' : 'webhook',
			runExecutionData,
		).processRunExecutionData(workflow);
		const task = run.data.resultData.runData[NODE_NAME]?.[0];
		const error = task?.error ?? run.data.resultData.error;
		if (error) throw new Error(`The execution failed: ${error.message}`);
		return (task?.data?.main?.[0] ?? []) as INodeExecutionData[];
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const rawBody = await readBody(request);
		const path = (request.url ?? '').split('?')[0];
		const test = path === new URL(this.webhookUrl({ test: true })).pathname;
		const registered =
			request.method === 'POST' &&
			(test
				? this.testStaticData !== undefined
				: path === new URL(this.webhookUrl()).pathname && this.productionActive);
		const eventIdHeader = request.headers['webhook-id'];
		const record: ReceivedRequest = {
			url: registered ? (test ? 'test' : 'production') : 'unknown',
			eventId: typeof eventIdHeader === 'string' ? eventIdHeader : undefined,
			status: 0,
			body: undefined,
			dropped: false,
			headers: { ...request.headers },
			rawBody,
		};
		this.requests.push(record);
		const answer = (status: number, body: unknown) => {
			record.status = status;
			record.body = body;
			if (!response.headersSent) {
				response.statusCode = status;
				if (typeof body === 'string') response.end(body);
				else {
					response.setHeader('content-type', 'application/json');
					response.end(JSON.stringify(body));
				}
			}
		};
		if (!registered) return answer(404, { message: 'The requested webhook is not registered.' });

		// n8n's body parser: JSON bodies are parsed before the node sees them; unparsable is 422.
		let body: unknown = {};
		if (
			(request.headers['content-type'] ?? '').startsWith('application/json') &&
			rawBody.length > 0
		) {
			try {
				body = JSON.parse(rawBody.toString('utf-8'));
			} catch {
				return answer(422, { message: 'Failed to parse request body' });
			}
		}

		const workflow = this.workflow(test ? {} : this.savedStaticData);
		if (test) workflow.setTestStaticData(this.testStaticData!);
		const { req, res } = expressLike(request, response, rawBody, body, record);
		if (this.dropAnswers > 0) {
			this.dropAnswers -= 1;
			record.dropped = true;
			// The node decides and n8n saves; only the answer never reaches the sender.
			res.status = (code: number) => {
				record.status = code;
				return res;
			};
			res.json = res.send = (value: unknown) => {
				record.body = value;
				return res;
			};
		}
		const additionalData = {
			...this.additionalData(),
			httpRequest: req,
			httpResponse: res,
		} as unknown as IWorkflowExecuteAdditionalData;
		const context = new WebhookContext(
			workflow,
			workflow.getNode(NODE_NAME)!,
			additionalData,
			test ? 'manual' : 'webhook',
			this.webhookData(workflow, additionalData, test),
			[],
			null,
		);

		let result;
		try {
			result = await this.options.nodeType.webhook!.call(context);
		} catch (error) {
			return answer(500, { message: (error as Error).message });
		}
		if (!test && (!result.workflowData || this.savesStaticDataOfStartedExecutions))
			this.save(workflow);
		if (result.workflowData) {
			record.items = result.workflowData[0];
			if (this.runsExecutions) record.passedOn = await this.runExecution(result.workflowData, test);
		}
		if (record.dropped) {
			if (!result.noWebhookResponse) record.status = 200;
			response.destroy();
			return;
		}
		if (result.noWebhookResponse) {
			record.status = response.statusCode;
			return;
		}
		if (result.workflowData) {
			answer(
				200,
				onReceivedAnswer(this.options.nodeType.description.webhooks![0].responseData, result),
			);
			// n8n stops listening on the test URL once a test event started an execution.
			if (test) await this.deactivate({ test: true });
			return;
		}
		answer(200, result.webhookResponse ?? { message: 'Webhook call received' });
	}
}
