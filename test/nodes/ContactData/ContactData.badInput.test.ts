/**
 * Bad input loses nothing: an operation that sends one call per item reads and checks every item
 * before it sends any, so a refusal stops the run before anything is sent, and under Continue On
 * Fail the good items are sent and the bad one is an error item, each paired with its input.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { PATHS, type SavedList } from '../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../harness/sandbox';
import { api, contacts, keyStats, run, type TestSandbox } from './setup';

let sandbox: TestSandbox;
let ids: string[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 1_000 });
	ids = (await contacts(sandbox, 4)).map((contact) => contact.id);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const requests = async (route: string) => (await keyStats(sandbox)).requests[route] ?? 0;
const byExpression = (expression: string) => ({ __rl: true, mode: 'id', value: expression });
/** Each input item's outcome, once (Export as items gives one output item a contact). */
const outcomes = (items: INodeExecutionData[]) =>
	[
		...new Set(
			items.map(({ json, pairedItem }) =>
				JSON.stringify([json.error === undefined ? 'sent' : 'error', pairedItem]),
			),
		),
	].map((outcome) => JSON.parse(outcome) as unknown);

async function makeList(name: string): Promise<SavedList> {
	const { status, body } = await api<SavedList>(sandbox, 'POST', PATHS.lists, {
		name,
		contact_ids: ids.slice(0, 2),
	});
	if (status !== 201) throw new Error(`create list: ${status}`);
	return body;
}

interface Case {
	operation: string;
	/** The route whose calls the run would make, as the sandbox counts them. */
	route: string;
	/** Three items, the second bad, each run with fresh sandbox state. */
	setUp: () => Promise<{ parameters: INodeParameters; inputItems: INodeExecutionData[] }>;
	typeVersion?: number;
}

const cases: Case[] = [
	{
		operation: 'File Refund Claim (2.2): an item with two IDs',
		route: 'POST /v1/credits/refund',
		typeVersion: 2.2,
		setUp: async () => {
			await api(sandbox, 'POST', PATHS.unlock, { ids, level: 'basic' });
			return {
				parameters: { resource: 'credits', operation: 'fileRefundClaim', reason: 'wrong_title' },
				inputItems: [
					{ json: { id: ids[0] } },
					{ json: { id: `${ids[1]}, ${ids[2]}` } },
					{ json: { id: ids[3] } },
				],
			};
		},
	},
	{
		operation: 'File Refund Claim (2): an item whose ID is not a contact ID',
		route: 'POST /v1/credits/refund',
		setUp: async () => {
			await api(sandbox, 'POST', PATHS.unlock, { ids, level: 'basic' });
			return {
				parameters: {
					resource: 'credits',
					operation: 'fileRefundClaim',
					contactId: '={{ $json.id }}',
					reason: 'wrong_title',
				},
				inputItems: [{ json: { id: ids[0] } }, { json: { id: 'nope' } }, { json: { id: ids[3] } }],
			};
		},
	},
	{
		operation: 'Saved List → Create from filters: an item with no name',
		route: 'POST /v1/lists',
		setUp: async () => ({
			parameters: {
				resource: 'savedList',
				operation: 'create',
				createFrom: 'filters',
				name: '={{ $json.name }}',
				filters: { seniority: ['vp'] },
			},
			inputItems: [{ json: { name: 'A' } }, { json: { name: '' } }, { json: { name: 'C' } }],
		}),
	},
	{
		operation: 'Saved List → Delete: an item whose list ID is not one',
		route: 'DELETE /v1/lists/:id',
		setUp: async () => {
			const [a, c] = [await makeList('A'), await makeList('C')];
			return {
				parameters: {
					resource: 'savedList',
					operation: 'delete',
					listId: byExpression('={{ $json.list }}'),
				},
				inputItems: [
					{ json: { list: a.id } },
					{ json: { list: 'my list' } },
					{ json: { list: c.id } },
				],
			};
		},
	},
	{
		operation: 'Saved List → Export: an item whose list ID is not one',
		route: 'POST /v1/lists/:id/export',
		setUp: async () => {
			const [a, c] = [await makeList('A'), await makeList('C')];
			return {
				parameters: {
					resource: 'savedList',
					operation: 'export',
					outputAs: 'items',
					listId: byExpression('={{ $json.list }}'),
				},
				inputItems: [
					{ json: { list: a.id } },
					{ json: { list: 'my list' } },
					{ json: { list: c.id } },
				],
			};
		},
	},
];

describe.each(cases)('$operation', ({ route, setUp, typeVersion }) => {
	it('is refused before any item is sent, and says nothing was sent', async () => {
		const result = await run(sandbox, { typeVersion, ...(await setUp()) });
		expect(result.error?.message).toMatch(/\[item 1\]$/);
		expect(result.error?.description).toMatch(/Nothing was sent\./);
		expect(await requests(route)).toBe(0);
	});

	it('under Continue On Fail: the good items are sent, the bad one is an error item', async () => {
		const result = await run(sandbox, { typeVersion, continueOnFail: true, ...(await setUp()) });
		expect(result.error).toBeUndefined();
		expect(outcomes(result.items)).toEqual([
			['sent', { item: 0 }],
			['error', { item: 1 }],
			['sent', { item: 2 }],
		]);
		expect(await requests(route)).toBe(2);
	});
});
