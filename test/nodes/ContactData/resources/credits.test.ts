/** Credits → Get Balance and File Refund Claim. */
import { PATHS } from '../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../harness/sandbox';
import { KEYS, api, contacts, run, type TestSandbox } from '../setup';

let sandbox: TestSandbox;
let ids: string[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 2_000 });
	ids = (await contacts(sandbox, 5)).map((contact) => contact.id);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const refund = (parameters: Record<string, unknown> = {}) => ({
	resource: 'credits',
	operation: 'fileRefundClaim',
	contactId: '={{ $json.id }}',
	reason: 'bounced_email',
	...parameters,
});

it('Get Balance: balance, tier, usage and refunds', async () => {
	await api(sandbox, 'POST', PATHS.unlock, { ids: ids.slice(0, 2), level: 'premium' });
	const result = await run(sandbox, {
		parameters: { resource: 'credits', operation: 'getBalance' },
	});
	expect(result.items[0].json).toMatchObject({
		balance: 1_000_000 - 4,
		tier: 'growth',
		refunds: [],
	});
	expect(result.items[0].json.usage).toHaveLength(2);
});

it('File Refund Claim: approved with the credits back; a second claim is a 409; a contact never unlocked a 404', async () => {
	await api(sandbox, 'POST', PATHS.unlock, { ids: ids.slice(0, 2), level: 'premium' });
	const first = await run(sandbox, {
		parameters: refund({ note: 'hard bounce' }),
		inputItems: [{ json: { id: ids[0] } }, { json: { id: ids[1] } }],
	});
	expect(first.items.map((item) => item.json)).toEqual([
		expect.objectContaining({
			contact_id: ids[0],
			status: 'approved',
			credits_refunded: 2,
			reason: 'bounced_email',
		}),
		expect.objectContaining({ contact_id: ids[1], status: 'approved', credits_refunded: 2 }),
	]);

	const again = await run(sandbox, {
		parameters: refund(),
		inputItems: [{ json: { id: ids[0] } }],
	});
	expect(again.error).toMatchObject({ name: 'NodeApiError', httpCode: '409' });
	expect(again.error?.message).not.toMatch(/\[item \d+\]/);

	const mixed = await run(sandbox, {
		parameters: refund({ reason: 'wrong_title' }),
		inputItems: [{ json: { id: ids[4] } }, { json: { id: ids[0] } }, { json: { id: 'nope' } }],
		continueOnFail: true,
	});
	expect(
		mixed.items.map((item) => item.json.httpCode ?? item.json.status ?? item.json.error),
	).toEqual(['404', 'approved', expect.stringMatching(/^Contact ID: "nope" must be a contact id/)]);
});

it('a revoked key: 401 with the API’s message', async () => {
	const result = await run(sandbox, {
		parameters: { resource: 'credits', operation: 'getBalance' },
		key: KEYS.revoked,
	});
	expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '401' });
	expect(result.error?.description).toMatch(/Update the API key/);
});
