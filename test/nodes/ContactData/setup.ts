/**
 * Shared set-up of the node tests: the sandbox, the Contact Data node run inside n8n's
 * WorkflowExecute with a credential for one of the sandbox keys, and a direct API client for
 * checking what happened at the service.
 */
import { ExecutionLifecycleHooks, LoadOptionsContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeTypes,
} from 'n8n-workflow';

import { ContactDataApi } from '../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../nodes/ContactData/ContactData.node';
import { PATHS, type ContactPreview } from '../../../nodes/ContactData/shared/client/contract';
import {
	MapCredentialsHelper,
	makeAdditionalData,
	runNode,
	type NodeRun,
	type RunNodeOptions,
} from '../../harness/engine';
import { api } from '../../harness/api';
import { KEYS, type TestSandbox } from '../../harness/sandbox';

export { KEYS, api, type TestSandbox };

export interface RunOptions {
	parameters: INodeParameters;
	inputItems?: INodeExecutionData[];
	continueOnFail?: boolean;
	retryOnFail?: RunNodeOptions['retryOnFail'];
	key?: string;
	baseUrl?: string;
	/** The credential's Timeout (Seconds); unset: its default. */
	timeoutSeconds?: number;
	/** Presses Stop when it settles. */
	stopWhen?: Promise<unknown>;
	/** The node's version: 2 (what a new node gets) unless given; tests of version 1 behaviour say 1. */
	typeVersion?: number;
	/** Run the node as an AI agent's tool (its n8n type name ends in "Tool", as n8n names the tool variant). */
	asTool?: boolean;
	/** The node's id: caps over time are counted per node, so a test gives its own. */
	nodeId?: string;
}

/**
 * The node as n8n offers it to an AI agent: n8n copies the description and appends "Tool" to its
 * name (n8n's convertNodeToAiTool), which is what `@tool` display conditions test.
 */
export function toolVariant(): ContactData {
	const node = new ContactData();
	node.description = {
		...node.description,
		name: `${node.description.name}Tool`,
		usableAsTool: undefined,
	};
	return node;
}

export async function run(sandbox: TestSandbox, options: RunOptions): Promise<NodeRun> {
	return await runNode({
		nodeType: options.asTool ? toolVariant() : new ContactData(),
		typeVersion: options.typeVersion ?? 2,
		parameters: options.parameters,
		inputItems: options.inputItems,
		continueOnFail: options.continueOnFail,
		retryOnFail: options.retryOnFail,
		credentialTypes: [new ContactDataApi()],
		credentials: {
			contactDataApi: {
				apiKey: options.key ?? KEYS.growth,
				baseUrl: options.baseUrl ?? sandbox.url,
				...(options.timeoutSeconds === undefined ? {} : { timeout: options.timeoutSeconds }),
			},
		},
		stopWhen: options.stopWhen,
		nodeId: options.nodeId,
	});
}

/** The node's execution hints (notices shown with the output). */
export function hints(nodeRun: NodeRun): string[] {
	const task = nodeRun.run.data.resultData.runData.Node?.[0];
	return (task?.hints ?? []).map((hint) => hint.message);
}

type SearchPage = { results: ContactPreview[]; next_cursor: string | null };

/** Contact previews from a direct search (pages of 100), for use as input ids. */
export async function contacts(
	sandbox: TestSandbox,
	count: number,
	filters: Record<string, unknown> = {},
): Promise<ContactPreview[]> {
	const found: ContactPreview[] = [];
	let cursor: string | null = null;
	while (found.length < count) {
		const { status, body }: { status: number; body: SearchPage } = await api<SearchPage>(
			sandbox,
			'POST',
			PATHS.search,
			{ filters, limit: Math.min(100, count - found.length), ...(cursor ? { cursor } : {}) },
		);
		if (status !== 200) throw new Error(`search: ${status}`);
		found.push(...body.results);
		cursor = body.next_cursor;
		if (!cursor) break;
	}
	return found;
}

/** Requests per route and credits charged for a key, from /_sandbox/stats. */
export async function keyStats(sandbox: TestSandbox, key: string = KEYS.growth) {
	const stats = await sandbox.admin.stats();
	return (
		stats.keys[key] ?? {
			requests: {} as Record<string, number>,
			http_429: 0,
			idempotent_replays: 0,
			credits_charged: 0,
			balance: NaN,
		}
	);
}

export async function balance(sandbox: TestSandbox, key: string = KEYS.growth): Promise<number> {
	return (await api<{ balance: number }>(sandbox, 'GET', PATHS.creditsBalance, undefined, key)).body
		.balance;
}

/** Every string in an execution's data, to check that a secret appears nowhere. */
export function everything(nodeRun: NodeRun): string {
	return JSON.stringify(nodeRun.run, (_key, value: unknown) =>
		value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
	);
}

/**
 * n8n-core's own LoadOptionsContext for the Contact Data node (list searches of resource locators),
 * with a credential for `key`.
 */
export function loadOptionsContext(
	sandbox: TestSandbox,
	key: string = KEYS.growth,
): ILoadOptionsFunctions {
	const nodeType = new ContactData();
	const node: INode = {
		id: 'node-under-test',
		name: 'Node',
		type: 'test.contactData',
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'savedList', operation: 'get' },
		credentials: { contactDataApi: { id: '1', name: 'contactDataApi test' } },
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		id: 'wf-test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const credentialsHelper = new MapCredentialsHelper(
		{ contactDataApi: new ContactDataApi() },
		{ contactDataApi: { apiKey: key, baseUrl: sandbox.url } },
	);
	const hooks = new ExecutionLifecycleHooks('manual', 'exec-1', {
		id: 'wf-test',
		nodes: [node],
		connections: {},
	} as never);
	return new LoadOptionsContext(
		workflow,
		node,
		makeAdditionalData(credentialsHelper, hooks),
		'parameters.listId',
	);
}

/** Unlock's parameters: each item's `id` (version 2's Contact ID Field, version 1's Contact IDs default). */
export const unlockParameters = (parameters: Record<string, unknown> = {}) => ({
	resource: 'contact',
	operation: 'unlock',
	...parameters,
});
/** Enrich's parameters: each item's `email`, by expression. */
export const enrichParameters = (parameters: Record<string, unknown> = {}) => ({
	resource: 'contact',
	operation: 'enrich',
	email: '={{ $json.email }}',
	...parameters,
});
export const WHAT_FITS = { whenMaxCreditsReached: 'whatFits' };
/** One input item per contact id, as `{ id }`. */
export const idItems = (ids: string[]) => ids.map((id) => ({ json: { id } as IDataObject }));
/** The ids of `count` contacts of the pool, from `from` on. */
export const idsFrom = (pool: ContactPreview[], count: number, from = 0) =>
	pool.slice(from, from + count).map((contact) => contact.id);
/** The contacts of a tool call's items: version 2 answers an agent in one item holding them (toolAnswer.ts). */
export const toolContacts = (items: INodeExecutionData[]) =>
	items.flatMap(({ json }) =>
		Array.isArray(json.contacts) ? (json.contacts as IDataObject[]) : [json],
	);
/** An unlocked record: it has its unlock time and an email field (null when the service has none). */
export const isUnlocked = (json: IDataObject) =>
	typeof json.unlocked_at === 'string' && 'email' in json;
