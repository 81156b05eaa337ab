/**
 * Reservations for answers lost after charging are kept by Idempotency-Key (issue 22's item, in the
 * credit policy): when the node runs as an AI agent's tool (one Max Credits per execution), a tool
 * call repeated by the agent replays the lost call, which is free, and the cap does not refuse it.
 */

import { ContactDataApi } from '../../../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { runAgent } from '../../../../harness/agent';
import { startTestSandbox } from '../../../../harness/sandbox';
import { contacts, isUnlocked, KEYS, keyStats, toolContacts, type TestSandbox } from '../../setup';

jest.setTimeout(120_000);

let sandbox: TestSandbox;
let ids: string[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 5_000 });
	ids = (await contacts(sandbox, 10)).map((contact) => contact.id);
});
afterAll(async () => sandbox?.close());
afterEach(async () => sandbox.admin.clearFaults());

it('a tool call whose answers stayed lost, repeated by the agent: the replay is free and not refused by Max Credits', async () => {
	// Five attempts, then five more at the end of the run: every answer of the first tool call is lost.
	await sandbox.admin.setFaults([
		{ route: 'POST /v1/unlock', kind: 'drop', count: 10, phase: 'after' },
	]);
	const { toolCalls } = await runAgent({
		toolType: new ContactData(),
		toolParameters: {
			resource: 'contact',
			operation: 'unlock',
			contactIds: '={{ $json.ids }}',
			maxCredits: 10,
			whenMaxCreditsReached: 'whatFits',
			simplify: false,
		},
		rounds: [[{ ids }], [{ ids }]],
		credentialTypes: [new ContactDataApi()],
		credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: sandbox.url } },
	});
	expect(toolCalls).toHaveLength(2);
	expect(toolCalls[1].error).toBeUndefined();
	expect(toolContacts(toolCalls[1].items).map((json) => json.id)).toEqual(ids);
	expect(toolContacts(toolCalls[1].items).every(isUnlocked)).toBe(true);
	const stats = await keyStats(sandbox);
	expect(stats.credits_charged).toBe(10);
	expect(stats.idempotent_replays).toBeGreaterThanOrEqual(10);
});
