/**
 * Issue 26: on n8n 1.123.x the node's context has no `isToolExecution()`. Version 2 of the node (what a
 * newly added node gets) must still search, unlock within Max Credits and enrich there, not fail with
 * "context.isToolExecution is not a function".
 */
import { withoutIsToolExecution } from '../../../../harness/n8n1';
import { startTestSandbox } from '../../../../harness/sandbox';
import { contacts, idsFrom, keyStats, run, WHAT_FITS, type TestSandbox } from '../../setup';

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
