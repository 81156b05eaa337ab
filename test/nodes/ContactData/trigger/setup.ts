/**
 * Shared set-up of the trigger tests: the sandbox, a direct API client for what the tests check
 * at the service, saved lists with members, and a TriggerHost running the trigger like n8n does.
 */
import { sleep, type INodeParameters } from 'n8n-workflow';

import { ContactDataApi } from '../../../../credentials/ContactDataApi.credentials';
import {
	PATHS,
	type EventType,
	type Webhook,
} from '../../../../nodes/ContactData/shared/client/contract';
import { ContactDataTrigger } from '../../../../nodes/ContactData/ContactDataTrigger.node';
import { TriggerHost } from '../../../harness/webhook';
import { api } from '../../../harness/api';
import { KEYS, startTestSandbox, type TestSandbox } from '../../../harness/sandbox';

export { api, type TestSandbox };

/** Retries a few hundred milliseconds apart, so retry behaviour shows within a test. */
export const RETRY_DELAYS_MS = [200, 300, 400, 500];

export interface TriggerTestEnv {
	sandbox: TestSandbox;
	/** Saved lists with members, made afresh before each test. */
	listA: string;
	listB: string;
}

/** Starts a sandbox for the test file and resets it, with two fresh saved lists, before each test. */
export function useTriggerSandbox(): TriggerTestEnv {
	const env = {} as TriggerTestEnv;
	beforeAll(async () => {
		env.sandbox = await startTestSandbox({
			contacts: 5_000,
			webhookRetryDelaysMs: RETRY_DELAYS_MS,
		});
	});
	afterAll(async () => {
		await env.sandbox.close();
	});
	beforeEach(async () => {
		await env.sandbox.admin.reset();
		env.listA = await createList(env.sandbox, 'VPs', 'vp');
		env.listB = await createList(env.sandbox, 'Directors', 'director');
	});
	return env;
}

export async function subscriptions(sandbox: TestSandbox): Promise<Webhook[]> {
	return (await api<{ webhooks: Webhook[] }>(sandbox, 'GET', PATHS.webhooks)).body.webhooks;
}

/** A saved list with members (a saved search), returning its id. */
export async function createList(
	sandbox: TestSandbox,
	name: string,
	seniority: string,
): Promise<string> {
	const { status, body } = await api<{ id: string; contact_count: number }>(
		sandbox,
		'POST',
		PATHS.lists,
		{
			name,
			filters: { seniority: [seniority] },
		},
	);
	if (status !== 201 || body.contact_count === 0) throw new Error(`list ${name}: ${status}`);
	return body.id;
}

export function triggerParameters(
	events: EventType[],
	listIds: string[] = [],
	options: { simplify?: boolean; minIntentScore?: number } = {},
): INodeParameters {
	return {
		events,
		lists: {
			list: listIds.map((value) => ({ savedList: { __rl: true, mode: 'id', value } })),
		},
		options,
	};
}

export function makeHost(
	sandbox: TestSandbox,
	parameters: INodeParameters,
	key: string = KEYS.growth,
): TriggerHost {
	return new TriggerHost({
		nodeType: new ContactDataTrigger(),
		parameters,
		credentialTypes: [new ContactDataApi()],
		credentials: { contactDataApi: { apiKey: key, baseUrl: sandbox.url } },
	});
}

/** Polls until `check` returns a value other than undefined (a generous limit, not a timing claim). */
export async function waitFor<T>(
	what: string,
	check: () => Promise<T | undefined>,
	limitMs = 30_000,
): Promise<T> {
	const deadline = Date.now() + limitMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
		await sleep(25);
	}
}
