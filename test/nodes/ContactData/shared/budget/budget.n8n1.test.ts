/**
 * Issue 26: on n8n 1.123.x the node's context has no `isToolExecution()`. Version 2 of the node (what a
 * newly added node gets) must still search, unlock within Max Credits and enrich there, not fail with
 * "context.isToolExecution is not a function".
 */
import { ContactDataApi } from '../../../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { runAgent } from '../../../../harness/agent';
import { withoutIsToolExecution } from '../../../../harness/n8n1';
import { startTestSandbox } from '../../../../harness/sandbox';
import {
	contacts,
	idItems,
	idsFrom,
	KEYS,
	keyStats,
	run,
	unlockParameters,
	WHAT_FITS,
	type TestSandbox,
} from '../../setup';

let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 2_000 });
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

it('the test plays n8n 1.x: the context has no isToolExecution while it runs', async () => {
	const { ExecuteContext } = await import('n8n-core');
	await withoutIsToolExecution(async () =>
		expect('isToolExecution' in ExecuteContext.prototype).toBe(false),
	);
	expect(typeof ExecuteContext.prototype.isToolExecution).toBe('function');
});

it('version 2 searches, unlocks within Max Credits and enriches on a context without isToolExecution', async () => {
	const pool = await contacts(sandbox, 10);
	await withoutIsToolExecution(async () => {
		const search = await run(sandbox, {
			typeVersion: 2,
			parameters: { resource: 'contact', operation: 'search', limit: 3 },
		});
		expect(search.error).toBeUndefined();
		expect(search.items).toHaveLength(3);

		const unlock = await run(sandbox, {
			typeVersion: 2,
			parameters: { resource: 'contact', operation: 'unlock', maxCredits: 2, ...WHAT_FITS },
			inputItems: idsFrom(pool, 3).map((id) => ({ json: { id } })),
		});
		expect(unlock.error).toBeUndefined();
		expect(unlock.items.filter((item) => item.json.unlocked === true)).toHaveLength(2);
		expect((await keyStats(sandbox)).credits_charged).toBe(2);

		const email = unlock.items
			.map((item) => item.json.email)
			.find((value) => typeof value === 'string');
		const enrich = await run(sandbox, {
			typeVersion: 2,
			parameters: { resource: 'contact', operation: 'enrich', maxCredits: 5 },
			inputItems: [{ json: { email } }],
		});
		expect(enrich.error).toBeUndefined();
		expect(enrich.items[0].json).toMatchObject({ email, unlocked: true });
	});
});

describe('the shared budgets on n8n 1.x (issue 30)', () => {
	it('an agent’s tool calls at once share Max Credits and the day cap: 3 calls of 4 under a day cap of 6 charge 6', async () => {
		const ids = idsFrom(await contacts(sandbox, 12), 12);
		await withoutIsToolExecution(async () => {
			const { agentItems } = await runAgent({
				way: 'langchain',
				toolNodeId: 'tool-n8n1-day',
				toolType: new ContactData(),
				toolParameters: {
					...unlockParameters({ maxCredits: 10, ...WHAT_FITS }),
					contactIds: "={{ $fromAI('ids', 'Contact IDs separated by commas', 'string') }}",
					options: { maxCreditsPerDay: 6 },
				},
				rounds: [[0, 4, 8].map((from) => ({ ids: ids.slice(from, from + 4).join(',') }))],
				credentialTypes: [new ContactDataApi()],
				credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: sandbox.url } },
			});
			expect(agentItems[0].json.answers).toHaveLength(3);
		});
		expect((await keyStats(sandbox)).credits_charged).toBe(6);
	});

	it('a Retry On Fail replay is counted once by the day: 150 charged, 150 of the 300 left', async () => {
		const pool = await contacts(sandbox, 301);
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'slow', delay_ms: 2_000, phase: 'after', count: 4 },
		]);
		const parameters = unlockParameters({ maxCredits: 150, options: { maxCreditsPerDay: 300 } });
		await withoutIsToolExecution(async () => {
			const first = await run(sandbox, {
				parameters,
				inputItems: idItems(idsFrom(pool, 150)),
				retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
				timeoutSeconds: 1,
				nodeId: 'n8n1-retry',
			});
			expect(first.error).toBeUndefined();
			const second = await run(sandbox, {
				parameters,
				inputItems: idItems(idsFrom(pool, 150, 150)),
				nodeId: 'n8n1-retry',
			});
			expect(second.error?.message).toBeUndefined();
			const third = await run(sandbox, {
				parameters,
				inputItems: idItems(idsFrom(pool, 1, 300)),
				nodeId: 'n8n1-retry',
			});
			expect(third.error?.description).toMatch(/already used 300 of the 300/);
		});
		await sandbox.admin.clearFaults();
		expect((await keyStats(sandbox)).credits_charged).toBe(300);
	});
});
