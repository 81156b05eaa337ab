/**
 * Max Credits as a hard ceiling, whatever happens: answers lost after the API charged, input that
 * says contacts are held when they are not, a budget smaller than the run (Stop Before Spending or
 * Unlock What Fits), and an AI agent's tool calls sharing one cap per execution.
 */
import type { IDataObject } from 'n8n-workflow';

import { ContactDataApi } from '../../../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import {
	PATHS,
	type ContactPreview,
} from '../../../../../nodes/ContactData/shared/client/contract';
import { runAgent } from '../../../../harness/agent';
import { startTestSandbox } from '../../../../harness/sandbox';
import {
	api,
	contacts,
	hints,
	idItems,
	idsFrom,
	isUnlocked,
	KEYS,
	keyStats,
	run,
	toolContacts,
	type TestSandbox,
	unlockParameters,
	WHAT_FITS,
} from '../../setup';

jest.setTimeout(120_000);

let sandbox: TestSandbox;
let pool: ContactPreview[];
/** People with an email the service knows (learnt by unlocking them, then reset). */
let people: Array<{ id: string; email: string }>;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 20_000 });
	pool = await contacts(sandbox, 600);
	const withEmail = pool
		.filter((contact) => contact.has_email)
		.slice(0, 60)
		.map((contact) => contact.id);
	const { body } = await api<{ contacts: Array<{ id: string; email: string }> }>(
		sandbox,
		'POST',
		PATHS.unlock,
		{
			ids: withEmail,
		},
	);
	people = body.contacts.filter((contact) => contact.email).slice(0, 20);
	await sandbox.admin.reset();
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());
afterEach(async () => sandbox.admin.clearFaults());

const unlock = unlockParameters;
const enrich = (parameters: Record<string, unknown> = {}) => ({
	resource: 'contact',
	operation: 'enrich',
	email: '={{ $json.email }}',
	...parameters,
});
const asItems = idItems;
const idsOf = (count: number, from = 0) => idsFrom(pool, count, from);
const whatFits = WHAT_FITS;

describe('lost answers', () => {
	it('Enrich: 12 new people, Max Credits 4, half the answers lost after charging: at most 4 charged', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/enrich', kind: 'drop', rate: 0.5, phase: 'after' },
		]);
		const emails = people.slice(0, 12).map(({ email }) => ({ json: { email } }));
		const result = await run(sandbox, {
			parameters: enrich({ maxCredits: 4, ...whatFits }),
			inputItems: emails,
			continueOnFail: true,
		});
		const stats = await keyStats(sandbox);
		expect(stats.credits_charged).toBeLessThanOrEqual(4);
		expect(stats.credits_charged).toBe(4);
		expect(result.items).toHaveLength(12);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			emails.map((_, item) => ({ item })),
		);
		// Every contact the API charged for comes out as a record, once; the rest are marked, not errors.
		expect(result.items.slice(0, 4).map((item) => item.json.id)).toEqual(
			people.slice(0, 4).map(({ id }) => id),
		);
		expect(result.items.slice(4).map((item) => item.json)).toEqual(
			people.slice(4, 12).map(({ email }) => ({ email, unlock_skipped: 'budget' })),
		);
		expect(hints(result)[0]).toMatch(/4 credits charged of a 4 budget.*8 .*not sent/);
		// None was held before: the notice states the rule, not that it happened.
		expect(hints(result)[0]).not.toMatch(/you already held were returned/);
		expect(hints(result)[0]).toMatch(/A contact already unlocked comes back free\.$/);
	});

	it('Enrich sends an Idempotency-Key: a lost answer is replayed with its charge, not re-unlocked for free', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/enrich', kind: 'drop', count: 1, phase: 'after' },
		]);
		const result = await run(sandbox, {
			parameters: enrich({ maxCredits: 1 }),
			inputItems: [{ json: { email: people[0].email } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.id).toBe(people[0].id);
		// The replay reports the first answer's charge: the run knows it spent 1 credit.
		expect(hints(result)[0]).toMatch(/1 credits? charged of a 1 budget/);
		expect((await keyStats(sandbox)).credits_charged).toBe(1);
	});

	it('Enrich: an answer lost five times in a row is replayed at the end of the run and its charge counted', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/enrich', kind: 'drop', count: 5, phase: 'after' },
		]);
		const result = await run(sandbox, {
			parameters: enrich({ maxCredits: 1 }),
			inputItems: [{ json: { email: people[0].email } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual([people[0].id]);
		expect(hints(result)[0]).toMatch(/1 credit charged of a 1 budget/);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/enrich']).toBe(6);
		expect(stats.credits_charged).toBe(1);
	});

	it('Unlock without continueOnFail, first call lost five times: the run still ends with every record', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'drop', count: 5, phase: 'after' },
		]);
		const ids = idsOf(120);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 120 }),
			inputItems: asItems(ids),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(ids);
		expect(result.items.every((item) => isUnlocked(item.json))).toBe(true);
		expect((await keyStats(sandbox)).credits_charged).toBe(120);
	});

	it('answers that stay lost keep their worst case counted: every answer lost, Max Credits 150, 150 charged at most', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'drop', rate: 1, phase: 'after' },
		]);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 150, whenMaxCreditsReached: 'whatFits' }),
			inputItems: asItems(idsOf(200)),
			continueOnFail: true,
		});
		const stats = await keyStats(sandbox);
		expect(stats.credits_charged).toBe(150);
		// Two calls (100 + 50) of five attempts each, then one replay of each (five attempts again).
		expect(stats.requests['POST /v1/unlock']).toBe(20);
		expect(result.items.filter((item) => item.json.error)).toHaveLength(150);
		expect(result.items.filter((item) => item.json.unlock_skipped === 'budget')).toHaveLength(50);
		expect(hints(result)[0]).toMatch(
			/0 credits charged of a 150 budget, and 150 held back for answers that were lost/,
		);
	});

	it('Unlock, continueOnFail, first call lost five times: paid contacts are records, not errors, within the budget', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'drop', count: 5, phase: 'after' },
		]);
		const ids = idsOf(150);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 150 }),
			inputItems: asItems(ids),
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(150);
		expect(result.items.filter((item) => item.json.error)).toEqual([]);
		expect(result.items.map((item) => item.json.id)).toEqual(ids);
		expect(result.items.every((item) => isUnlocked(item.json))).toBe(true);
		expect((await keyStats(sandbox)).credits_charged).toBe(150);
	});

	it('Unlock What Fits, 250 contacts, Max Credits 150, first call lost five times: 150 charged, not 200', async () => {
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'drop', count: 5, phase: 'after' },
		]);
		const ids = idsOf(250);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 150, ...whatFits }),
			inputItems: asItems(ids),
			continueOnFail: true,
		});
		expect((await keyStats(sandbox)).credits_charged).toBe(150);
		expect(result.items).toHaveLength(250);
		expect(result.items.filter((item) => item.json.error)).toEqual([]);
		expect(result.items.filter((item) => isUnlocked(item.json))).toHaveLength(150);
		expect(result.items.filter((item) => item.json.unlock_skipped === 'budget')).toHaveLength(100);
	});
});

describe('the input never widens the budget', () => {
	it('100 new contacts the input calls "unlocked": true, Max Credits 10: at most 10 charged', async () => {
		const forged = pool
			.slice(0, 100)
			.map((contact) => ({ json: { ...contact, unlocked: true } as IDataObject }));
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 10 }),
			inputItems: forged,
		});
		expect((await keyStats(sandbox)).credits_charged).toBe(10);
		expect(result.error?.message).toMatch(
			/Max Credits of 10 reached: 10 credits charged; 90 contacts not sent/,
		);
	});

	it('the same, under Max Credits per Day 10: the error names the daily cap in its remedy too', async () => {
		const forged = pool
			.slice(0, 100)
			.map((contact) => ({ json: { ...contact, unlocked: true } as IDataObject }));
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 50, options: { maxCreditsPerDay: 10 } }),
			inputItems: forged,
		});
		expect((await keyStats(sandbox)).credits_charged).toBe(10);
		expect(result.error?.message).toMatch(/^Max Credits per Day of 10 reached: 10 credits charged/);
		// The remedy is said once, in the message (issue 38, finding 4).
		expect(result.error?.message).toMatch(/Raise Max Credits per Day and run again/);
		expect(result.error?.description ?? '').not.toMatch(/Raise|run again/);
	});

	it('"level": "premium" on contacts not held, premium unlock, Max Credits 10: at most 10 charged', async () => {
		const forged = pool.slice(0, 100).map((contact) => ({
			json: { ...contact, unlocked: true, level: 'premium' } as IDataObject,
		}));
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 10, level: 'premium', ...whatFits }),
			inputItems: forged,
			continueOnFail: true,
		});
		expect((await keyStats(sandbox)).credits_charged).toBe(10);
		expect(result.items.filter((item) => isUnlocked(item.json))).toHaveLength(5);
		expect(result.items.filter((item) => item.json.unlock_skipped === 'budget')).toHaveLength(95);
	});

	it('the input may still decide Skip Already Unlocked: those items pass through unsent', async () => {
		const forged = pool
			.slice(0, 20)
			.map((contact) => ({ json: { ...contact, unlocked: true } as IDataObject }));
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 0, options: { skipAlreadyUnlocked: true } }),
			inputItems: forged,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.every((item) => item.json.unlock_skipped === 'already_unlocked')).toBe(
			true,
		);
		expect((await sandbox.admin.stats()).requests_total).toBe(0);
	});
});

describe('Max Credits and Level themselves', () => {
	it('a Level that is not one (by expression) is refused before anything is sent, for Unlock and Enrich', async () => {
		const unlocking = await run(sandbox, {
			parameters: unlock({ level: '={{ "gold" }}' }),
			inputItems: asItems(idsOf(5)),
		});
		expect(unlocking.error?.message).toMatch(/^Level: "gold" is not one of the choices; /);
		expect(unlocking.error?.description).toMatch(/Basic \(basic\), Premium \(premium\)/);
		const enriching = await run(sandbox, {
			parameters: enrich({ level: '={{ "gold" }}' }),
			inputItems: [{ json: { email: people[0].email } }],
		});
		expect(enriching.error?.message).toMatch(/^Level: "gold" is not one of the choices; /);
		expect(enriching.error?.description).toMatch(/Basic \(basic\), Premium \(premium\)/);
		expect((await sandbox.admin.stats()).requests_total).toBe(0);
	});

	it('Level is read before When Max Credits Is Reached: with both wrong, Level is named', async () => {
		const result = await run(sandbox, {
			parameters: unlock({ level: '={{ "gold" }}', whenMaxCreditsReached: '={{ "never" }}' }),
			inputItems: asItems(idsOf(2)),
		});
		expect(result.error?.message).toMatch(/^Level: "gold" is not one of the choices/);
	});

	it.each([['={{ "abc" }}'], ['={{ -5 }}'], ['={{ null }}']])(
		'%s is refused before anything is sent',
		async (maxCredits) => {
			const result = await run(sandbox, {
				parameters: unlock({ maxCredits }),
				inputItems: asItems(idsOf(5)),
			});
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toMatch(
				/^Max Credits: .+ is (not a whole number|less than 0); type a whole number of 0 or more/,
			);
			expect((await sandbox.admin.stats()).requests_total).toBe(0);
		},
	);
});

describe('When Max Credits Is Reached', () => {
	it('Stop Before Spending (default): 20 new contacts, Max Credits 10: nothing sent, and the message says so', async () => {
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 10 }),
			inputItems: asItems(idsOf(20)),
		});
		expect(result.error?.name).toBe('NodeOperationError');
		// On the canvas: what happened and the first remedy; the rest below it (issue 44).
		expect(result.error?.message).toBe(
			'Max Credits of 10 is not enough for up to 20 credits, so nothing was sent. Raise Max Credits to 20.',
		);
		expect(result.error?.description).toBe(
			'Unlocking 20 contacts at basic level could cost up to 20 credits. Nothing was charged. You can also ask for fewer contacts, or set When Max Credits Is Reached to Unlock What Fits. Unlock What Fits spends up to the budget and passes the rest through.',
		);
		expect((await sandbox.admin.stats()).requests_total).toBe(0);
	});

	it('Stop Before Spending with continueOnFail: nothing sent, every item an error item saying so', async () => {
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 150 }),
			inputItems: asItems(idsOf(250)),
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(250);
		expect(result.items.every((item) => /nothing was sent/.test(String(item.json.error)))).toBe(
			true,
		);
		expect((await sandbox.admin.stats()).requests_total).toBe(0);
	});

	it('Unlock What Fits: 250 new contacts, Max Credits 150: the first 150 unlocked, 100 marked, not errors', async () => {
		const ids = idsOf(250);
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 150, ...whatFits }),
			inputItems: asItems(ids),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(ids);
		expect(result.items.slice(0, 150).every((item) => isUnlocked(item.json))).toBe(true);
		expect(result.items.slice(150).map((item) => item.json)).toEqual(
			ids.slice(150).map((id) => ({ id, unlock_skipped: 'budget' })),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		const stats = await keyStats(sandbox);
		expect(stats.credits_charged).toBe(150);
		expect(stats.requests['POST /v1/unlock']).toBe(2);
		expect(hints(result)[0]).toMatch(/150 credits charged of a 150 budget.*100 contacts not sent/);
	});

	it('Unlock What Fits, "unlock up to 10": 10 unlocked in one call of 10', async () => {
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 10, ...whatFits }),
			inputItems: asItems(idsOf(20)),
		});
		expect(result.items.filter((item) => isUnlocked(item.json))).toHaveLength(10);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/unlock']).toBe(1);
		expect(stats.credits_charged).toBe(10);
	});

	it('Enrich, Stop Before Spending: 12 people, Max Credits 4: nothing sent', async () => {
		const result = await run(sandbox, {
			parameters: enrich({ maxCredits: 4 }),
			inputItems: people.slice(0, 12).map(({ email }) => ({ json: { email } })),
		});
		expect(result.error?.message).toBe(
			'Max Credits of 4 is not enough for up to 12 credits, so nothing was sent. Raise Max Credits to 12.',
		);
		expect(result.error?.description).toMatch(
			/^Enriching 12 items at basic level could cost up to 12 credits\. Nothing was charged\./,
		);
		expect((await sandbox.admin.stats()).requests_total).toBe(0);
	});
});

describe('When Max Credits Is Reached itself', () => {
	it('a value by expression that is not one of its choices is refused before anything is sent', async () => {
		const result = await run(sandbox, {
			parameters: unlock({ maxCredits: 5, whenMaxCreditsReached: '={{ "spend it all" }}' }),
			inputItems: asItems(idsOf(20)),
		});
		expect(result.error?.message).toMatch(
			/^When Max Credits Is Reached: "spend it all" is not one of the choices/,
		);
		expect((await sandbox.admin.stats()).requests_total).toBe(0);
	});
});

describe('AI agent tool calls', () => {
	const agent = (rounds: IDataObject[][], maxCredits: number) =>
		runAgent({
			toolType: new ContactData(),
			toolParameters: unlock({
				contactIds: '={{ $json.ids }}',
				maxCredits,
				...whatFits,
				simplify: false,
			}),
			rounds,
			credentialTypes: [new ContactDataApi()],
			credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: sandbox.url } },
		});

	it('share one Max Credits per execution: 6 calls of 10 contacts with Max Credits 25 spend 25, not 60', async () => {
		const rounds = [0, 1, 2].map((round) => [
			{ ids: idsOf(10, round * 20) },
			{ ids: idsOf(10, round * 20 + 10) },
		]);
		const { toolCalls } = await agent(rounds, 25);
		expect(toolCalls).toHaveLength(6);
		const stats = await keyStats(sandbox);
		expect(stats.credits_charged).toBe(25);
		const unlocked = toolCalls.flatMap((call) => toolContacts(call.items).filter(isUnlocked));
		expect(unlocked).toHaveLength(25);
	});

	it('Stop Before Spending: the call that could go over answers the agent why, nothing more spent', async () => {
		const rounds = [[{ ids: idsOf(10) }], [{ ids: idsOf(10, 10) }], [{ ids: idsOf(10, 20) }]];
		const { toolCalls } = await runAgent({
			toolType: new ContactData(),
			toolParameters: unlock({ contactIds: '={{ $json.ids }}', maxCredits: 25, simplify: false }),
			rounds,
			credentialTypes: [new ContactDataApi()],
			credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: sandbox.url } },
		});
		expect(toolCalls).toHaveLength(3);
		expect(toolCalls[2].error).toBeUndefined();
		const [answer] = toolCalls[2].items;
		expect(answer.json.error).toMatch(/Max Credits of 25 is not enough: unlocking 10 contacts/);
		expect(answer.json.description).toMatch(
			/Earlier tool calls of this execution already used 20 of the 25/,
		);
		expect((await keyStats(sandbox)).credits_charged).toBe(20);
	});

	it('LangChain tool calls, six at once: 6 calls of 10 contacts with Max Credits 25 spend 25, not 60', async () => {
		const { agentItems } = await runAgent({
			way: 'langchain',
			toolType: new ContactData(),
			toolParameters: unlock({
				contactIds: "={{ $fromAI('ids', 'Contact IDs separated by commas', 'string') }}",
				maxCredits: 25,
				...whatFits,
				simplify: false,
			}),
			rounds: [Array.from({ length: 6 }, (_, call) => ({ ids: idsOf(10, call * 10).join(',') }))],
			credentialTypes: [new ContactDataApi()],
			credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: sandbox.url } },
		});
		const answers = agentItems[0].json.answers as string[];
		expect(answers).toHaveLength(6);
		const stats = await keyStats(sandbox);
		expect(stats.credits_charged).toBe(25);
		expect(answers.join('\n').match(/"unlocked_at"/g)).toHaveLength(25);
	});

	it('each execution has its own cap', async () => {
		await agent([[{ ids: idsOf(10) }]], 10);
		const second = await agent([[{ ids: idsOf(10, 10) }]], 10);
		expect(toolContacts(second.toolCalls[0].items).every(isUnlocked)).toBe(true);
		expect((await keyStats(sandbox)).credits_charged).toBe(20);
	});
});
