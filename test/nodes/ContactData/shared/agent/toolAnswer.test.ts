/**
 * Answers sized for an AI agent (version 2, the node run as an agent's tool in n8n's engine, with a
 * scripted model): one answer per call, contacts of at most 10 fields, a search page of 10 with the
 * cursor of the next one, and one field saying what was spent and what is left of Max Credits.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ContactDataApi } from '../../../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { PATHS } from '../../../../../nodes/ContactData/shared/client/contract';
import { runAgent } from '../../../../harness/agent';
import { startTestSandbox } from '../../../../harness/sandbox';
import { KEYS, api, contacts, keyStats, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
let ids: string[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 5_000 });
	ids = (await contacts(sandbox, 30)).map((contact) => contact.id);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const AGENT_FIELDS = [
	'id',
	'name',
	'title',
	'company',
	'domain',
	'email',
	'phone',
	'linkedin_url',
	'seniority',
	'unlocked',
];

const agent = (toolParameters: INodeParameters, rounds: IDataObject[][], typeVersion = 2) =>
	runAgent({
		toolType: new ContactData(),
		typeVersion,
		toolParameters,
		rounds,
		credentialTypes: [new ContactDataApi()],
		credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: sandbox.url } },
	});

/** The one answer of a tool call. */
function answerOf(items: INodeExecutionData[]): IDataObject {
	expect(items).toHaveLength(1);
	return items[0].json;
}

function expectCompact(contact: IDataObject): void {
	expect(Object.keys(contact).length).toBeLessThanOrEqual(10);
	expect(AGENT_FIELDS).toEqual(expect.arrayContaining(Object.keys(contact)));
}

it('Search: a page of 10 compact contacts and the cursor the agent gives back for the next page', async () => {
	const first = (
		await api<{ results: Array<{ id: string }>; next_cursor: string }>(
			sandbox,
			'POST',
			PATHS.search,
			{ filters: {}, limit: 10 },
		)
	).body;
	const second = (
		await api<{ results: Array<{ id: string }> }>(sandbox, 'POST', PATHS.search, {
			filters: {},
			limit: 10,
			cursor: first.next_cursor,
		})
	).body;
	const { toolCalls } = await agent({ resource: 'contact', operation: 'search' }, [
		[{}],
		[{ cursor: first.next_cursor }],
	]);
	expect(toolCalls.map((call) => call.error)).toEqual([undefined, undefined]);
	const [page1, page2] = toolCalls.map((call) => answerOf(call.items));
	expect((page1.contacts as IDataObject[]).map((contact) => contact.id)).toEqual(
		first.results.map((contact) => contact.id),
	);
	expect(page1.next_cursor).toBe(first.next_cursor);
	expect((page2.contacts as IDataObject[]).map((contact) => contact.id)).toEqual(
		second.results.map((contact) => contact.id),
	);
	for (const contact of page1.contacts as IDataObject[]) expectCompact(contact);
	expect(page1.credits).toEqual({
		spent_by_this_call: 0,
		spent_in_run: 0,
		max_credits: null,
		left: null,
		replayed: 0,
	});
});

it('Unlock: the IDs from the model, compact records, and what was spent and is left of the shared cap', async () => {
	const rounds = [
		[{ contact_ids: ids.slice(0, 3).join(',') }],
		[{ contact_ids: `${ids[2]},${ids[3]}` }],
	];
	const { toolCalls } = await agent(
		{ resource: 'contact', operation: 'unlock', maxCredits: 25 },
		rounds,
	);
	expect(toolCalls.map((call) => call.error)).toEqual([undefined, undefined]);
	const [first, second] = toolCalls.map((call) => answerOf(call.items));
	expect(
		(first.contacts as IDataObject[]).map((contact) => [contact.id, contact.unlocked]),
	).toEqual(ids.slice(0, 3).map((id) => [id, true]));
	for (const contact of first.contacts as IDataObject[]) {
		expectCompact(contact);
		expect(contact).toHaveProperty('email');
	}
	expect(first.credits).toEqual({
		spent_by_this_call: 3,
		spent_in_run: 3,
		max_credits: 25,
		left: 22,
		replayed: 0,
	});
	// ids[2] is held already: the first call is sent again under its own key, a free replay.
	expect(second.credits).toEqual({
		spent_by_this_call: 1,
		spent_in_run: 4,
		max_credits: 25,
		left: 21,
		replayed: 1,
	});
	expect((await keyStats(sandbox)).credits_charged).toBe(4);
});

it('Unlock What Fits: what the cap did not reach comes apart, marked, with nothing left', async () => {
	const { toolCalls } = await agent(
		{ resource: 'contact', operation: 'unlock', maxCredits: 2, whenMaxCreditsReached: 'whatFits' },
		[[{ contact_ids: ids.slice(10, 13).join(',') }]],
	);
	const answer = answerOf(toolCalls[0].items);
	expect((answer.contacts as IDataObject[]).map((contact) => contact.id)).toEqual(
		ids.slice(10, 12),
	);
	expect(answer.not_done).toEqual([{ id: ids[12], unlock_skipped: 'budget' }]);
	expect(answer.credits).toEqual({
		spent_by_this_call: 2,
		spent_in_run: 2,
		max_credits: 2,
		left: 0,
		replayed: 0,
	});
});

it('version 1 as a tool keeps its items: one per contact, with every field', async () => {
	const { toolCalls } = await agent(
		{
			resource: 'contact',
			operation: 'unlock',
			maxCredits: 5,
			contactIds: '={{ $json.ids }}',
			simplify: false,
		},
		[[{ ids: ids.slice(0, 2) }]],
		1,
	);
	expect(toolCalls[0].items.map((item) => item.json.id)).toEqual(ids.slice(0, 2));
	expect(toolCalls[0].items[0].json).toHaveProperty('unlocked_at');
	expect(toolCalls[0].items[0].json).not.toHaveProperty('credits');
});

it('through LangChain (n8n’s createNodeAsTool, as the AI Agent node calls it): the model sees the compact answer', async () => {
	const { agentItems } = await runAgent({
		way: 'langchain',
		toolType: new ContactData(),
		typeVersion: 2,
		toolParameters: { resource: 'contact', operation: 'unlock', maxCredits: 10 },
		rounds: [[{ contact_ids: ids.slice(20, 22).join(',') }, { contact_ids: ids[22] }]],
		credentialTypes: [new ContactDataApi()],
		credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: sandbox.url } },
	});
	const answers = (agentItems[0].json.answers as string[]).map(
		(text) => JSON.parse(text) as IDataObject | IDataObject[],
	);
	const [two, one] = answers.map((answer) => (Array.isArray(answer) ? answer[0] : answer));
	expect((two.contacts as IDataObject[]).map((contact) => contact.id)).toEqual(ids.slice(20, 22));
	expect((one.contacts as IDataObject[]).map((contact) => contact.id)).toEqual([ids[22]]);
	for (const contact of [...(two.contacts as IDataObject[]), ...(one.contacts as IDataObject[])])
		expectCompact(contact);
	expect(two.credits).toMatchObject({ spent_by_this_call: 2, max_credits: 10 });
	expect(one.credits).toMatchObject({ spent_by_this_call: 1, max_credits: 10 });
	expect((await keyStats(sandbox)).credits_charged).toBe(3);
});
