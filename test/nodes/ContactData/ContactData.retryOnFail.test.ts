/**
 * n8n's Retry On Fail setting on the charging operations: when a run fails after the API charged
 * (its answers lost, here to timeouts the node does not send again), n8n runs the node again in the
 * same execution, and the node must send the same Idempotency-Keys, so the API replays the first
 * answers: nothing is charged twice and the output reports what the first calls charged.
 */
import { PATHS, type ContactPreview } from '../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../harness/sandbox';
import { api, contacts, keyStats, run, type TestSandbox } from './setup';

let sandbox: TestSandbox;
let pool: ContactPreview[];
/** People the service knows: their email (learnt by unlocking them, then reset). */
let people: Array<{ id: string; email: string }>;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 5_000 });
	pool = await contacts(sandbox, 300);
	const withEmail = pool.filter((contact) => contact.has_email).map((contact) => contact.id);
	const { body } = await api<{ contacts: Array<{ id: string; email: string }> }>(
		sandbox,
		'POST',
		PATHS.unlock,
		{
			ids: withEmail.slice(0, 2),
		},
	);
	people = body.contacts;
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const retryOnFail = { maxTries: 2, waitBetweenTries: 1 };
/** Every call's answer is lost after the API charged: the node times out and does not send it again itself. */
const answersLost = (route: string, count: number) => [
	{ route, kind: 'slow' as const, delay_ms: 2_000, phase: 'after' as const, count },
];
const TIMEOUT_SECONDS = 1;

// Max Credits exactly what the run needs: the retry, a new run of the node, has its own budget.
const unlock = { resource: 'contact', operation: 'unlock', maxCredits: 150 };
const enrich = {
	resource: 'contact',
	operation: 'enrich',
	email: '={{ $json.email }}',
	maxCredits: 2,
};

describe('Unlock', () => {
	const ids = () => pool.slice(100, 250).map((contact) => contact.id);

	it('a run that failed after the API charged is run again with the same keys: charged once, reported as charged', async () => {
		// Two calls (100 + 50 ids); each answer and its replay at the end of the run are lost: the run fails.
		await sandbox.admin.setFaults(answersLost('POST /v1/unlock', 4));
		const result = await run(sandbox, {
			parameters: unlock,
			inputItems: ids().map((id) => ({ json: { id } })),
			retryOnFail,
			timeoutSeconds: TIMEOUT_SECONDS,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(150);
		expect(result.items.every((item) => item.json.unlocked === true)).toBe(true);
		// The retry's calls are answered from the first ones: had they carried new keys, the contacts
		// (held by then) would have come back free and the run would report 0 credits.
		expect(result.items[0].json.credits_charged_in_run).toBe(150);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/unlock']).toBe(6);
		expect(stats.idempotent_replays).toBe(4);
		expect(stats.credits_charged).toBe(150);
	});

	it('with continueOnFail, n8n runs it again for its error items: the same keys, charged once', async () => {
		await sandbox.admin.setFaults(answersLost('POST /v1/unlock', 4));
		const result = await run(sandbox, {
			parameters: unlock,
			inputItems: ids().map((id) => ({ json: { id } })),
			continueOnFail: true,
			retryOnFail,
			timeoutSeconds: TIMEOUT_SECONDS,
		});
		expect(result.items).toHaveLength(150);
		expect(result.items.filter((item) => item.json.error !== undefined)).toEqual([]);
		expect(result.items[0].json.credits_charged_in_run).toBe(150);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/unlock']).toBe(6);
		expect(stats.idempotent_replays).toBe(4);
		expect(stats.credits_charged).toBe(150);
	});
});

describe('Enrich', () => {
	it('a run that failed after the API charged is run again with the same keys: charged once, reported as charged', async () => {
		// One call per item; each answer and its replay at the end of the run are lost: the run fails.
		await sandbox.admin.setFaults(answersLost('POST /v1/enrich', 4));
		const result = await run(sandbox, {
			parameters: enrich,
			inputItems: people.map(({ email }) => ({ json: { email } })),
			retryOnFail,
			timeoutSeconds: TIMEOUT_SECONDS,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(people.map(({ id }) => id));
		expect(result.items.map((item) => item.json.credits_charged_in_run)).toEqual([2, 2]);
		const stats = await keyStats(sandbox);
		expect(stats.requests['POST /v1/enrich']).toBe(6);
		expect(stats.idempotent_replays).toBe(4);
		expect(stats.credits_charged).toBe(2);
	});
});
