/**
 * Agents in loops and over MCP (issue 27): a replayed call is counted once, an MCP call (no
 * execution id) never gets an earlier call's answer, caps over time that a client cannot reset,
 * and tools that tell the model the price.
 */
import {
	NodeHelpers,
	traverseNodeParameters,
	type FromAIArgument,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
} from 'n8n-workflow';

import { ContactDataApi } from '../../../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { HEADERS, PATHS } from '../../../../../nodes/ContactData/shared/client/contract';
import { runAgent } from '../../../../harness/agent';
import { startTestSandbox } from '../../../../harness/sandbox';
import { json, startFakeApi, type FakeApi } from '../../../../support/fakeApi.cjs';
import { KEYS, api, contacts, keyStats, run, toolVariant, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
let ids: string[];
let fake: FakeApi | undefined;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 1_000 });
	ids = (await contacts(sandbox, 40)).map((contact) => contact.id);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());
afterEach(async () => {
	await sandbox.admin.clearFaults();
	await fake?.close();
	fake = undefined;
});

const unlock = (parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'contact',
	operation: 'unlock',
	...parameters,
});

/** One execution of an agent calling the tool (version 2); `mcp`: as the MCP Server Trigger runs a call. */
const agent = (
	toolParameters: INodeParameters,
	rounds: IDataObject[][],
	options: {
		mcp?: boolean;
		input?: IDataObject;
		baseUrl?: string;
		timeoutSeconds?: number;
		typeVersion?: number;
	} = {},
) =>
	runAgent({
		// Each test its own node: caps over time are counted per node, in this process.
		toolNodeId: `tool-${expect.getState().currentTestName}`,
		way: options.mcp || options.input ? 'langchain' : 'engine',
		withoutExecutionId: options.mcp,
		mcpTrigger: options.mcp,
		input: options.input,
		toolType: new ContactData(),
		typeVersion: options.typeVersion ?? 2,
		toolParameters,
		rounds,
		credentialTypes: [new ContactDataApi()],
		credentials: {
			contactDataApi: {
				apiKey: KEYS.growth,
				baseUrl: options.baseUrl ?? sandbox.url,
				...(options.timeoutSeconds ? { timeout: options.timeoutSeconds } : {}),
			},
		},
	});

/** One MCP `tools/call`: its own request, with no execution id; its answer as the model reads it. */
async function mcpCall(
	toolParameters: INodeParameters,
	input: IDataObject,
	session?: string,
	typeVersion?: number,
): Promise<IDataObject> {
	const headers = session ? { headers: { 'mcp-session-id': session } } : {};
	const { agentItems } = await agent(toolParameters, [[input]], {
		mcp: true,
		input: headers,
		typeVersion,
	});
	const [text] = agentItems[0].json.answers as string[];
	return parsedAnswer(text);
}

/** A tool call's answer as the model reads it (n8n may wrap it in a list); an error's text as `error`. */
function parsedAnswer(text: string): IDataObject {
	try {
		const answer = JSON.parse(text) as IDataObject | IDataObject[];
		return Array.isArray(answer) ? answer[0] : answer;
	} catch {
		return { error: text };
	}
}

function answerOf(items: INodeExecutionData[]): IDataObject {
	expect(items).toHaveLength(1);
	return items[0].json;
}

describe('a replay is never a second charge', () => {
	it('the same unlock twice in one agent execution: charged and reported once, the second as a replay', async () => {
		const call = { contact_ids: ids.slice(0, 3).join(',') };
		const { toolCalls } = await agent(unlock({ maxCredits: 10 }), [[call], [call]]);
		expect(toolCalls.map((toolCall) => toolCall.error)).toEqual([undefined, undefined]);
		const [first, second] = toolCalls.map((toolCall) => answerOf(toolCall.items));
		expect(first.credits).toEqual({
			spent_by_this_call: 3,
			spent_in_run: 3,
			max_credits: 10,
			left: 7,
			replayed: 0,
		});
		expect(second.credits).toEqual({
			spent_by_this_call: 0,
			spent_in_run: 3,
			max_credits: 10,
			left: 7,
			replayed: 1,
		});
		expect((second.contacts as IDataObject[]).map((contact) => contact.id)).toEqual(
			ids.slice(0, 3),
		);
		const stats = await keyStats(sandbox);
		expect(stats.credits_charged).toBe(3);
		expect(stats.idempotent_replays).toBe(1);
	});

	it('an API that leaves Idempotent-Replayed out: the key’s charge is still counted once', async () => {
		const answers = new Map<string, IDataObject>();
		fake = await startFakeApi((request, res, req) => {
			const key = String(req.headers[HEADERS.idempotencyKey]);
			const ids = (request.body as { ids: string[] }).ids;
			const contacts = ids.map((id) => ({
				id,
				first_name: 'Ada',
				unlocked: true,
				level: 'basic',
				email: null,
				unlocked_at: '2026-11-25T00:00:00Z',
			}));
			// A replay: the first answer again, its charge included, and no header saying so.
			const answer = answers.get(key) ?? {
				contacts,
				credits_charged: ids.length,
				credits_remaining: 100 - ids.length,
			};
			answers.set(key, answer);
			json(res, 200, answer);
		});
		const call = { contact_ids: 'ct_a,ct_b,ct_c' };
		const { toolCalls } = await agent(unlock({ maxCredits: 6 }), [[call], [call]], {
			baseUrl: fake.url,
		});
		const [first, second] = toolCalls.map((toolCall) => answerOf(toolCall.items));
		expect(first.credits).toMatchObject({ spent_by_this_call: 3, spent_in_run: 3, left: 3 });
		expect(second.credits).toMatchObject({
			spent_by_this_call: 0,
			spent_in_run: 3,
			left: 3,
			replayed: 1,
		});
	});

	it('Enrich repeated in one agent execution: charged and reported once', async () => {
		// People with an email the service knows, learnt by unlocking them (then reset).
		const { body } = await api<{ contacts: Array<{ email: string | null }> }>(
			sandbox,
			'POST',
			PATHS.unlock,
			{ ids: ids.slice(30, 40) },
		);
		const email = body.contacts.find((contact) => contact.email)!.email;
		await sandbox.admin.reset();
		const call = { email, linkedin_url: '' };
		const { toolCalls } = await agent({ resource: 'contact', operation: 'enrich', maxCredits: 3 }, [
			[call],
			[call],
		]);
		expect(toolCalls.map((toolCall) => toolCall.error)).toEqual([undefined, undefined]);
		const [first, second] = toolCalls.map((toolCall) => answerOf(toolCall.items));
		expect(first.credits).toMatchObject({
			spent_by_this_call: 1,
			spent_in_run: 1,
			left: 2,
			replayed: 0,
		});
		expect(second.credits).toMatchObject({
			spent_by_this_call: 0,
			spent_in_run: 1,
			left: 2,
			replayed: 1,
		});
		expect((await keyStats(sandbox)).credits_charged).toBe(1);
	});
});

describe('a replay is never refused', () => {
	/** The second of two identical tool calls, where Max Credits no longer holds a new call's price. */
	async function repeatedUnlock(parameters: INodeParameters) {
		const call = { contact_ids: ids.slice(0, 3).join(',') };
		const { toolCalls } = await agent(unlock({ maxCredits: 5, ...parameters }), [[call], [call]]);
		expect(toolCalls.map((toolCall) => toolCall.error)).toEqual([undefined, undefined]);
		return answerOf(toolCalls[1].items);
	}

	it.each([['stop'], ['whatFits']])(
		'the same unlock twice with 2 credits left (%s): replayed whole, free',
		async (whenMaxCreditsReached) => {
			const second = await repeatedUnlock({ whenMaxCreditsReached });
			expect(second.credits).toMatchObject({ spent_by_this_call: 0, left: 2, replayed: 1 });
			expect((second.contacts as IDataObject[]).map((contact) => contact.id)).toEqual(
				ids.slice(0, 3),
			);
			const stats = await keyStats(sandbox);
			expect(stats.credits_charged).toBe(3);
			expect(stats.idempotent_replays).toBe(1);
		},
	);

	it('the same enrich twice with nothing left of Max Credits: replayed, free', async () => {
		const { body } = await api<{ contacts: Array<{ email: string | null }> }>(
			sandbox,
			'POST',
			PATHS.unlock,
			{ ids: ids.slice(30, 40) },
		);
		const email = body.contacts.find((contact) => contact.email)!.email;
		await sandbox.admin.reset();
		const call = { email, linkedin_url: '' };
		const { toolCalls } = await agent({ resource: 'contact', operation: 'enrich', maxCredits: 1 }, [
			[call],
			[call],
		]);
		expect(toolCalls.map((toolCall) => toolCall.error)).toEqual([undefined, undefined]);
		const second = answerOf(toolCalls[1].items);
		expect(second.credits).toMatchObject({ spent_by_this_call: 0, left: 0, replayed: 1 });
		expect((await keyStats(sandbox)).credits_charged).toBe(1);
	});
});

describe('every MCP call gets today’s record', () => {
	it('two MCP calls of the same unlock: the second is answered afresh (no replay), free as the contacts are held', async () => {
		const call = { contact_ids: ids.slice(3, 6).join(',') };
		const first = await mcpCall(unlock({ maxCredits: 10 }), call);
		const second = await mcpCall(unlock({ maxCredits: 10 }), call);
		expect(first.credits).toMatchObject({ spent_by_this_call: 3, replayed: 0 });
		expect(second.credits).toMatchObject({ spent_by_this_call: 0, replayed: 0 });
		const stats = await keyStats(sandbox);
		expect(stats.idempotent_replays).toBe(0);
		expect(stats.credits_charged).toBe(3);
	});

	it('an MCP call whose answer was lost replays it with its own key: charged once', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'drop', count: 1, phase: 'after' },
		]);
		const answer = await mcpCall(unlock({ maxCredits: 10 }), {
			contact_ids: ids.slice(6, 8).join(','),
		});
		expect(answer.credits).toMatchObject({ spent_by_this_call: 2, replayed: 1 });
		const stats = await keyStats(sandbox);
		expect(stats.credits_charged).toBe(2);
		expect(stats.idempotent_replays).toBe(1);
	});
});

describe('caps over time that a client cannot reset', () => {
	it('Max Credits per Day: two MCP calls of 4 under a daily cap of 5 charge 4, the second refused with its remedy', async () => {
		const parameters = unlock({ maxCredits: 5, options: { maxCreditsPerDay: 5 } });
		const first = await mcpCall(parameters, { contact_ids: ids.slice(10, 14).join(',') });
		expect(first.credits).toMatchObject({ spent_by_this_call: 4, left: 1, left_today: 1 });
		const second = await mcpCall(parameters, { contact_ids: ids.slice(14, 18).join(',') });
		expect(String(second.error)).toMatch(/Max Credits per Day/);
		expect(String(second.error)).toMatch(/Nothing was sent and nothing was charged/);
		expect((await keyStats(sandbox)).credits_charged).toBe(4);
	});

	it('Max Credits per Day: concurrent MCP calls never together pass it (What Fits: 5 charged of 8 asked)', async () => {
		const parameters = unlock({
			maxCredits: 5,
			whenMaxCreditsReached: 'whatFits',
			options: { maxCreditsPerDay: 5 },
		});
		const answers = await Promise.all([
			mcpCall(parameters, { contact_ids: ids.slice(18, 22).join(',') }),
			mcpCall(parameters, { contact_ids: ids.slice(22, 26).join(',') }),
		]);
		expect((await keyStats(sandbox)).credits_charged).toBe(5);
		const unlocked = answers.flatMap((answer) => answer.contacts as IDataObject[]);
		expect(unlocked).toHaveLength(5);
		const passedOver = answers.flatMap(
			(answer) => (answer.not_done as IDataObject[] | undefined) ?? [],
		);
		expect(passedOver.map((entry) => entry.unlock_skipped)).toEqual(['budget', 'budget', 'budget']);
	});

	it('Max Credits per Day (2.1): left_today is exact for settled calls, and a lost call’s worst case is reported as held', async () => {
		const parameters = unlock({ maxCredits: 10, options: { maxCreditsPerDay: 10 } });
		// Every attempt of the first call is charged, then its answer dropped: 3 may have been charged.
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'drop', count: 10, phase: 'after' },
		]);
		const call = (from: number, to: number) =>
			mcpCall(parameters, { contact_ids: ids.slice(from, to).join(',') }, undefined, 2.1);
		const lost = await call(30, 33);
		expect(String(lost.error)).toMatch(/may have charged up to 3 credits/);
		await sandbox.admin.clearFaults();
		const next = await call(33, 35);
		expect(next.credits).toMatchObject({ spent_by_this_call: 2, left_today: 5, held_today: 3 });
		expect((await keyStats(sandbox)).credits_charged).toBe(5);
	});

	it('Max Credits per MCP Session: a session stops at its cap; another session has its own', async () => {
		const parameters = unlock({ maxCredits: 10, options: { maxCreditsPerSession: 3 } });
		const first = await mcpCall(
			parameters,
			{ contact_ids: ids.slice(26, 28).join(',') },
			'session-a',
		);
		expect(first.credits).toMatchObject({ spent_by_this_call: 2, left_in_session: 1 });
		const second = await mcpCall(
			parameters,
			{ contact_ids: ids.slice(28, 30).join(',') },
			'session-a',
		);
		expect(String(second.error)).toMatch(/Max Credits per MCP Session/);
		const other = await mcpCall(
			parameters,
			{ contact_ids: ids.slice(28, 30).join(',') },
			'session-b',
		);
		expect(other.credits).toMatchObject({ spent_by_this_call: 2, left_in_session: 1 });
		expect((await keyStats(sandbox)).credits_charged).toBe(4);
	});
});

describe('the MCP session is the MCP Server Trigger’s own', () => {
	it('an ordinary item’s headers (a webhook’s, a sheet’s) do not choose a session: no session cap, no session tally', async () => {
		const parameters = unlock({ maxCredits: 10, options: { maxCreditsPerSession: 3 } });
		// A Tools Agent fed by a webhook: its item carries the caller's headers, not an MCP request.
		const input = { headers: { 'mcp-session-id': 'picked-by-the-caller' } };
		const texts: string[] = [];
		for (const slice of [ids.slice(0, 2), ids.slice(2, 4)]) {
			const { agentItems } = await agent(parameters, [[{ contact_ids: slice.join(',') }]], {
				input,
			});
			texts.push((agentItems[0].json.answers as string[])[0]);
		}
		expect(texts[1]).not.toMatch(/Max Credits per MCP Session/);
		const credits = texts.map((text) => parsedAnswer(text).credits);
		expect(credits).toEqual([
			expect.objectContaining({ spent_by_this_call: 2 }),
			expect.objectContaining({ spent_by_this_call: 2 }),
		]);
		expect(credits.some((of) => 'left_in_session' in (of as IDataObject))).toBe(false);
		expect((await keyStats(sandbox)).credits_charged).toBe(4);
	});

	it('a node run with items carrying mcp-session-id headers has no session cap either (items are input, not the request)', async () => {
		const result = await run(sandbox, {
			asTool: true,
			parameters: unlock({
				contactIds: '={{ $json.id }}',
				maxCredits: 10,
				options: { maxCreditsPerSession: 1 },
			}),
			inputItems: ids.slice(4, 7).map((id) => ({
				json: { id, headers: { 'mcp-session-id': 'from-a-sheet' } },
			})),
			nodeId: 'tool-items-with-headers',
		});
		expect(result.error?.message).toBeUndefined();
		expect((await keyStats(sandbox)).credits_charged).toBe(3);
	});

	it('Max Credits per MCP Session: three calls of one session at once (What Fits) charge 5 of 9 asked', async () => {
		const parameters = unlock({
			maxCredits: 10,
			whenMaxCreditsReached: 'whatFits',
			options: { maxCreditsPerSession: 5 },
		});
		const answers = await Promise.all(
			[0, 1, 2].map(
				async (at) =>
					await mcpCall(
						parameters,
						{ contact_ids: ids.slice(10 + at * 3, 13 + at * 3).join(',') },
						'session-parallel',
					),
			),
		);
		expect(answers.flatMap((answer) => answer.contacts as IDataObject[])).toHaveLength(5);
		expect((await keyStats(sandbox)).credits_charged).toBe(5);
	});

	it('two MCP calls of the same unlock at once never share an Idempotency-Key', async () => {
		const keys: string[] = [];
		fake = await startFakeApi((request, res, req) => {
			keys.push(String(req.headers[HEADERS.idempotencyKey]));
			const ids = (request.body as { ids: string[] }).ids;
			json(res, 200, {
				contacts: ids.map((id) => ({ id, unlocked: true, unlocked_at: '2026-11-25T00:00:00Z' })),
				credits_charged: ids.length,
			});
		});
		const call = { contact_ids: 'ct_a,ct_b' };
		const { agentItems } = await runAgent({
			toolNodeId: 'tool-same-call-at-once',
			way: 'langchain',
			withoutExecutionId: true,
			mcpTrigger: true,
			input: { headers: { 'mcp-session-id': 'one-session' } },
			toolType: new ContactData(),
			typeVersion: 2,
			toolParameters: unlock({ maxCredits: 10 }),
			rounds: [[call, call]],
			credentialTypes: [new ContactDataApi()],
			credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: fake.url } },
		});
		const answers = (agentItems[0].json.answers as string[]).map(parsedAnswer);
		expect(answers.map((answer) => answer.credits)).toEqual([
			expect.objectContaining({ spent_by_this_call: 2 }),
			expect.objectContaining({ spent_by_this_call: 2 }),
		]);
		expect(keys).toHaveLength(2);
		expect(new Set(keys).size).toBe(2);
	});
});

describe('tools that tell the model the price', () => {
	/**
	 * What n8n offers the model for a tool node saved with `parameters` (its defaults filled in, as
	 * n8n does): the tool's description, and the descriptions of the arguments the model fills, read
	 * by n8n's own $fromAI parser (what createNodeAsTool builds the tool's schema from).
	 */
	const offered = (saved: INodeParameters) => {
		const nodeType = toolVariant();
		const { description: type } = nodeType;
		const at = { typeVersion: 2, parameters: saved } as unknown as INode;
		const parameters =
			NodeHelpers.getNodeParameters(type.properties, saved, true, false, at, type) ?? {};
		const node = { ...at, id: 'tool', name: 'Contact Data', type: type.name, parameters };
		const found: FromAIArgument[] = [];
		traverseNodeParameters(parameters, found);
		return {
			description: NodeHelpers.getToolDescriptionForNode(node, nodeType),
			arguments: found.map(({ description }) => description).join(' '),
		};
	};

	it('the description is the action; the arguments of Unlock and Enrich say the price and the cap', () => {
		const unlockTool = offered({ resource: 'contact', operation: 'unlock' });
		expect(unlockTool.description).toBe('Unlock contacts in Contact Data');
		expect(unlockTool.arguments).toMatch(/1 credit .*basic.*2 .*premium/i);
		expect(unlockTool.arguments).toMatch(/Max Credits/);
		const enrichTool = offered({ resource: 'contact', operation: 'enrich' });
		expect(enrichTool.arguments).toMatch(/1 credit .*basic.*2 .*premium/i);
		expect(enrichTool.arguments).toMatch(/Max Credits/);
		for (const [resource, operation] of [
			['contact', 'search'],
			['credits', 'getBalance'],
			['savedList', 'getMany'],
		]) {
			const { description, arguments: read } = offered({ resource, operation });
			expect(`${description} ${read}`).not.toMatch(/1 credit|premium|Max Credits/);
		}
	});

	it('a refusal is the answer, its remedy in the message the model reads', async () => {
		const { toolCalls } = await agent(unlock({ maxCredits: 2 }), [
			[{ contact_ids: ids.slice(0, 3).join(',') }],
		]);
		expect(toolCalls[0].error).toBeUndefined();
		const { error } = answerOf(toolCalls[0].items);
		expect(error).toMatch(/Nothing was sent and nothing was charged/);
		expect(error).toMatch(/raise Max Credits to 3/i);
	});

	it('a refused charging call says what was sent and that it was not charged, in the message', async () => {
		await sandbox.admin.setBalance(KEYS.growth, 0);
		const { toolCalls } = await agent(unlock({ maxCredits: 5 }), [
			[{ contact_ids: ids.slice(0, 2).join(',') }],
		]);
		expect(answerOf(toolCalls[0].items).error).toMatch(
			new RegExp(
				`${PATHS.unlock} for contacts ${ids[0]}, ${ids[1]} was refused, so this call was not charged`,
			),
		);
	});

	it('a charging call that timed out says it was sent twice with the same key and may have been charged', async () => {
		const keys: string[] = [];
		fake = await startFakeApi((_request, _res, req) => {
			keys.push(String(req.headers[HEADERS.idempotencyKey]));
			/* never answers */
		});
		const { toolCalls } = await agent(unlock({ maxCredits: 5 }), [[{ contact_ids: 'ct_a,ct_b' }]], {
			baseUrl: fake.url,
			timeoutSeconds: 1,
		});
		expect(keys).toHaveLength(2);
		expect(new Set(keys).size).toBe(1);
		const message = String(answerOf(toolCalls[0].items).error);
		expect(message).not.toMatch(/not sent again/);
		expect(message).toMatch(/sent twice with the same Idempotency-Key/);
		expect(message).toMatch(/may have charged up to 2 credits/);
	});
});
