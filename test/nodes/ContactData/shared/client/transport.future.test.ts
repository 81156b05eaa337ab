/**
 * A tolerant reader: the node runs against the sandbox's "future API" mode (new enum values, new
 * fields, keys reordered in every answer) and takes what it does not know, with one call each.
 * Only a field the node needs, missing, is an error, a clear one, and the call is not sent again.
 */
import { PATHS } from '../../../../../nodes/ContactData/shared/client/contract';
import { FUTURE_FIELD } from '../../../../../sandbox/futureApi.cjs';
import { json, startFakeApi } from '../../../../support/fakeApi.cjs';
import { startTestSandbox } from '../../../../harness/sandbox';
import { api, contacts, enrichParameters, keyStats, run, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
let people: Array<{ id: string; email: string }>;
let ids: string[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 2_000 });
	const found = await contacts(sandbox, 60);
	ids = found.map((contact) => contact.id);
	const withEmail = found
		.filter((contact) => contact.has_email)
		.map((contact) => contact.id)
		.slice(0, 3);
	people = (
		await api<{ contacts: Array<{ id: string; email: string }> }>(sandbox, 'POST', PATHS.unlock, {
			ids: withEmail,
		})
	).body.contacts;
});
afterAll(async () => sandbox?.close());
beforeEach(async () => {
	await sandbox.admin.reset();
	await sandbox.admin.setSettings({ future_api: true });
});
afterEach(async () => sandbox.admin.setSettings({ future_api: false }));

async function calls(route: string): Promise<number> {
	return (await keyStats(sandbox)).requests[route] ?? 0;
}

describe('the future API mode (sandbox)', () => {
	it('adds a field, reorders keys and gives enum values the contract does not list', async () => {
		const { body } = await api<Record<string, unknown>>(sandbox, 'GET', PATHS.creditsBalance);
		expect(body).toHaveProperty(FUTURE_FIELD);
		expect(body.tier).toBe('business');
		expect(Object.keys(body).indexOf('refunds')).toBeLessThan(Object.keys(body).indexOf('balance'));
	});
});

describe('the node under the future API: unknown values pass through, one call each', () => {
	it('Unlock', async () => {
		const result = await run(sandbox, {
			parameters: { resource: 'contact', operation: 'unlock', maxCredits: 100 },
			inputItems: ids.slice(0, 10).map((id) => ({ json: { id } })),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(10);
		expect(await calls('POST /v1/unlock')).toBe(1);
		const withEmail = result.items.find((item) => item.json.email !== null);
		expect(withEmail?.json).toMatchObject({ email_status: 'catch_all', seniority: 'board_member' });
		expect(result.items[0].json).toHaveProperty(FUTURE_FIELD);
		expect((await keyStats(sandbox)).credits_charged).toBe(10);
	});

	it('Search', async () => {
		const result = await run(sandbox, {
			parameters: { resource: 'contact', operation: 'search', returnAll: false, limit: 20 },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(20);
		expect(await calls('POST /v1/search')).toBe(1);
		expect(result.items[0].json).toMatchObject({
			seniority: 'board_member',
			[FUTURE_FIELD]: expect.anything(),
		});
	});

	it('Enrich', async () => {
		const result = await run(sandbox, {
			parameters: enrichParameters({ maxCredits: 10 }),
			inputItems: [{ json: { email: people[0].email } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ id: people[0].id, email_status: 'catch_all' });
		expect(await calls('POST /v1/enrich')).toBe(1);
	});

	it('Get Balance', async () => {
		const result = await run(sandbox, {
			parameters: { resource: 'credits', operation: 'getBalance' },
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			tier: 'business',
			[FUTURE_FIELD]: expect.anything(),
		});
		expect(await calls('GET /v1/credits/balance')).toBe(1);
	});

	it('Saved List → Create and Get Many', async () => {
		const created = await run(sandbox, {
			parameters: {
				resource: 'savedList',
				operation: 'create',
				name: 'Future',
				createFrom: 'contactIds',
				contactIdsFrom: 'expression',
				contactIds: ids.slice(0, 3).join(','),
			},
		});
		expect(created.error).toBeUndefined();
		const many = await run(sandbox, {
			parameters: { resource: 'savedList', operation: 'getMany', returnAll: true },
		});
		expect(many.error).toBeUndefined();
		expect(many.items.length).toBeGreaterThanOrEqual(1);
		expect(await calls('GET /v1/lists')).toBe(1);
	});
});

describe('a field the node needs, missing', () => {
	it('is a clear error naming it, after exactly one call (an unlock is not re-sent)', async () => {
		const fake = await startFakeApi((_request, res) =>
			json(res, 200, { credits_charged: 1, credits_remaining: 9, people: [] }),
		);
		try {
			const result = await run(sandbox, {
				parameters: { resource: 'contact', operation: 'unlock', maxCredits: 100 },
				inputItems: [{ json: { id: 'ct_1' } }],
				baseUrl: fake.url,
			});
			expect(result.error?.message).toMatch(/answered without `contacts`/);
			expect(fake.requests).toHaveLength(1);
		} finally {
			await fake.close();
		}
	});
});
