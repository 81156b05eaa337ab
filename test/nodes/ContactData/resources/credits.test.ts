/**
 * Credits → Get Balance and File Refund Claim; from version 2.2 the claim's Contact ID Field is taken
 * as Unlock, Add Contacts and Remove Contacts take theirs.
 */
import { NodeHelpers, type INode, type INodeTypeDescription } from 'n8n-workflow';

import { ContactData } from '../../../../nodes/ContactData/ContactData.node';
import { PATHS } from '../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../harness/sandbox';
import { KEYS, api, contacts, keyStats, run, type TestSandbox } from '../setup';

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

describe('File Refund Claim, version 2.2: Contact ID Field, as Unlock takes its Contact IDs', () => {
	const claim = (parameters: Record<string, unknown> = {}) => ({
		resource: 'credits',
		operation: 'fileRefundClaim',
		reason: 'bounced_email',
		...parameters,
	});
	const claimed = (items: Array<{ json: Record<string, unknown> }>) =>
		items.map(({ json }) => json.contact_id);

	it('reads each item’s id field by default, and a dragged field inside another', async () => {
		await api(sandbox, 'POST', PATHS.unlock, { ids: ids.slice(0, 3), level: 'basic' });
		const byDefault = await run(sandbox, {
			typeVersion: 2.2,
			parameters: claim(),
			inputItems: [{ json: { id: ids[0] } }, { json: { id: ids[1] } }],
		});
		expect(claimed(byDefault.items)).toEqual([ids[0], ids[1]]);
		const nested = await run(sandbox, {
			typeVersion: 2.2,
			parameters: claim({ contactIdField: 'contact.id', reason: 'wrong_title' }),
			inputItems: [{ json: { contact: { id: ids[2] } } }],
		});
		expect(claimed(nested.items)).toEqual([ids[2]]);
	});

	it('an expression in the field gives each item’s own ID', async () => {
		await api(sandbox, 'POST', PATHS.unlock, { ids: ids.slice(0, 2), level: 'basic' });
		const result = await run(sandbox, {
			typeVersion: 2.2,
			parameters: claim({ contactIdField: '={{ $json.ref.split("/")[1] }}' }),
			inputItems: [{ json: { ref: `crm/${ids[1]}` } }, { json: { ref: `crm/${ids[0]}` } }],
		});
		expect(claimed(result.items)).toEqual([ids[1], ids[0]]);
	});

	it('refuses an item without the field or with two IDs, before anything is sent', async () => {
		const missing = await run(sandbox, {
			typeVersion: 2.2,
			parameters: claim(),
			inputItems: [{ json: { email: 'ada@example.com' } }],
		});
		expect(missing.error?.message).toMatch(/^Contact ID Field: "id" is not a field of the input/);
		expect(missing.error?.description).toMatch(/The item has the fields email/);
		const two = await run(sandbox, {
			typeVersion: 2.2,
			parameters: claim(),
			inputItems: [{ json: { id: `${ids[0]}, ${ids[1]}` } }],
		});
		expect(two.error?.message).toMatch(
			/^Contact ID Field: .* has 2 contact IDs: a claim is for one contact/,
		);
		expect((await keyStats(sandbox)).requests['POST /v1/credits/refund']).toBeUndefined();
	});

	it('shows the field on the canvas, the model’s value to an agent; 2.1 keeps its expression', () => {
		const { description } = new ContactData();
		const asTool = { ...description, name: `${description.name}Tool` };
		const shown = (typeVersion: number, type: INodeTypeDescription) => {
			const node = { typeVersion, parameters: {} } as unknown as INode;
			const values = { resource: 'credits', operation: 'fileRefundClaim' };
			return description.properties
				.filter((property) => NodeHelpers.displayParameter(values, property, node, type))
				.filter(({ name }) => name.startsWith('contactId'))
				.map(({ name, default: value, requiresDataPath }) => ({ name, value, requiresDataPath }));
		};
		expect(shown(2.2, description)).toEqual([
			{ name: 'contactIdField', value: 'id', requiresDataPath: 'single' },
		]);
		expect(shown(2.2, asTool)).toEqual([
			{ name: 'contactId', value: expect.stringMatching(/^=\{\{ \$fromAI\('contact_id'/) },
		]);
		expect(shown(2.1, description)).toEqual([{ name: 'contactId', value: '={{ $json.id }}' }]);
	});
});
