/**
 * A tool call that cannot be done answers the model instead of throwing (issue 32, item 5). n8n 1.x
 * ends the whole execution when a tool node throws (the chat webhook answers 500), so the model
 * never reads the remedy; n8n 2.x passes the message alone. Both engines' contexts are played: the
 * 1.x one lacks isToolExecution (test/harness/n8n1.ts).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ContactDataApi } from '../../../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { runAgent, type AgentRun } from '../../../../harness/agent';
import { withoutIsToolExecution } from '../../../../harness/n8n1';
import { startTestSandbox } from '../../../../harness/sandbox';
import { startFakeApi, type FakeApi } from '../../../../support/fakeApi.cjs';
import { KEYS, contacts, keyStats, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
let ids: string[];
let fake: FakeApi | undefined;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 1_000 });
	ids = (await contacts(sandbox, 10)).map((contact) => contact.id);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());
afterEach(async () => {
	await fake?.close();
	fake = undefined;
});

const LINES = [
	['2.x', <T>(body: () => Promise<T>) => body()],
	['1.x', withoutIsToolExecution],
] as const;

const agent = (
	toolParameters: INodeParameters,
	input: IDataObject,
	options: { typeVersion?: number; baseUrl?: string; timeoutSeconds?: number } = {},
) =>
	runAgent({
		toolType: new ContactData(),
		typeVersion: options.typeVersion ?? 2,
		toolParameters,
		rounds: [[input]],
		credentialTypes: [new ContactDataApi()],
		credentials: {
			contactDataApi: {
				apiKey: KEYS.growth,
				baseUrl: options.baseUrl ?? sandbox.url,
				...(options.timeoutSeconds ? { timeout: options.timeoutSeconds } : {}),
			},
		},
	});

/** The one item the tool answered, after checking that the call and the execution went on. */
function answerOf({ run, toolCalls, agentItems }: AgentRun): IDataObject {
	expect(toolCalls).toHaveLength(1);
	expect(toolCalls[0].error).toBeUndefined();
	expect(run.data.resultData.error).toBeUndefined();
	// The agent ran again after the call: the execution was not ended by it.
	expect(agentItems).toHaveLength(1);
	expect(toolCalls[0].items).toHaveLength(1);
	return toolCalls[0].items[0].json;
}

describe.each(LINES)('on the n8n %s engine', (_line, onLine) => {
	it('a Max Credits refusal is the answer: the message and its remedy, nothing charged', async () => {
		const answer = answerOf(
			await onLine(() =>
				agent(
					{ resource: 'contact', operation: 'unlock', maxCredits: 2 },
					{ contact_ids: ids.slice(0, 3).join(',') },
				),
			),
		);
		expect(answer.error).toMatch(/Nothing was sent and nothing was charged/);
		expect(`${answer.error} ${answer.description}`).toMatch(/raise Max Credits to 3/i);
		expect((await keyStats(sandbox)).credits_charged).toBe(0);
	});

	it('a call that gets no answer is the answer: sent twice with one key, may have been charged', async () => {
		fake = await startFakeApi(() => {
			/* never answers */
		});
		const answer = answerOf(
			await onLine(() =>
				agent(
					{ resource: 'contact', operation: 'unlock', maxCredits: 5 },
					{ contact_ids: 'ct_a,ct_b' },
					{ baseUrl: fake!.url, timeoutSeconds: 1 },
				),
			),
		);
		expect(answer.error).toMatch(/sent twice with the same Idempotency-Key/);
		expect(answer.error).toMatch(/may have charged up to 2 credits/);
	});

	it('a free operation refused by the service is the answer too (Saved List Get of an unknown list)', async () => {
		const answer = answerOf(
			await onLine(() =>
				agent(
					{
						resource: 'savedList',
						operation: 'get',
						listId: { __rl: true, mode: 'id', value: 'ls_missing' },
					},
					{},
				),
			),
		);
		expect(String(answer.error)).not.toBe('');
		expect(answer.httpCode).toBe('404');
	});

	it('version 1 as a tool answers a refusal the same way', async () => {
		const answer = answerOf(
			await onLine(() =>
				agent(
					{
						resource: 'contact',
						operation: 'unlock',
						maxCredits: 1,
						contactIds: '={{ $json.ids }}',
					},
					{ ids: ids.slice(0, 2) },
					{ typeVersion: 1 },
				),
			),
		);
		expect(answer.error).toMatch(/Nothing was sent and nothing was charged/);
	});
});
