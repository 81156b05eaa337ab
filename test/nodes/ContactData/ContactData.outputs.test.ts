/**
 * Outputs people and agents can use: Simplify (on by default as an AI tool), what a run cost on the
 * items, once-per-run operations, and what the AI tool variant offers.
 */
import { NodeHelpers, type IDataObject, type INode, type INodeParameters } from 'n8n-workflow';

import { PATHS } from '../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../harness/sandbox';
import { api, balance, contacts, keyStats, run, toolVariant, type TestSandbox } from './setup';

let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 3_000 });
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const FIRST_KEYS = ['name', 'title', 'company_name', 'email', 'phone', 'linkedin_url'];
const unlock = (parameters: Record<string, unknown> = {}) => ({
	resource: 'contact',
	operation: 'unlock',
	maxCredits: 100,
	...parameters,
});

describe('Simplify', () => {
	it('Search: off by default (the full record); on, a flat item with name, title and company first', async () => {
		const full = await run(sandbox, {
			parameters: { resource: 'contact', operation: 'search', limit: 3 },
		});
		expect(full.items[0].json).toHaveProperty('company.name');

		const flat = await run(sandbox, {
			parameters: { resource: 'contact', operation: 'search', limit: 3, simplify: true },
		});
		expect(flat.error).toBeUndefined();
		expect(flat.items).toHaveLength(3);
		flat.items.forEach((item, index) => {
			const source = full.items[index].json as {
				id: string;
				first_name: string;
				last_name: string;
				company: { name: string };
			};
			expect(Object.keys(item.json).slice(0, 3)).toEqual(['name', 'title', 'company_name']);
			expect(item.json).toMatchObject({
				id: source.id,
				name: `${source.first_name} ${source.last_name}`,
				company_name: source.company.name,
				unlocked: false,
			});
			expect(item.json).not.toHaveProperty('company');
			expect(item.json).not.toHaveProperty('email');
			expect(item.pairedItem).toEqual({ item: 0 });
		});
	});

	it('Unlock and Enrich: name, title, company, email, phone, LinkedIn first', async () => {
		const previews = (await contacts(sandbox, 40))
			.filter((contact) => contact.has_email)
			.slice(0, 2);
		const unlocked = await run(sandbox, {
			parameters: unlock({ simplify: true, level: 'premium' }),
			inputItems: previews.map((preview) => ({ json: { ...preview } as IDataObject })),
		});
		expect(unlocked.error).toBeUndefined();
		for (const item of unlocked.items) {
			expect(Object.keys(item.json).slice(0, 6)).toEqual(FIRST_KEYS);
			expect(item.json.email).toEqual(expect.stringContaining('@'));
			expect(item.json).toMatchObject({ unlocked: true, level: 'premium' });
			expect(item.json).not.toHaveProperty('work_history');
		}

		const enriched = await run(sandbox, {
			parameters: {
				resource: 'contact',
				operation: 'enrich',
				email: '={{ $json.email }}',
				simplify: true,
			},
			inputItems: [{ json: { email: unlocked.items[0].json.email } }],
		});
		expect(enriched.error).toBeUndefined();
		expect(Object.keys(enriched.items[0].json).slice(0, 6)).toEqual(FIRST_KEYS);
		expect(enriched.items[0].json.id).toBe(previews[0].id);
	});

	// Version 1's items as they are; version 2 answers an agent in one item (toolAnswer.test.ts).
	it('is on by default when the node runs as an AI agent’s tool', async () => {
		const asTool = await run(sandbox, {
			parameters: { resource: 'contact', operation: 'search', limit: 2 },
			asTool: true,
			typeVersion: 1,
		});
		expect(asTool.error).toBeUndefined();
		expect(Object.keys(asTool.items[0].json).slice(0, 3)).toEqual([
			'name',
			'title',
			'company_name',
		]);

		const turnedOff = await run(sandbox, {
			parameters: { resource: 'contact', operation: 'search', limit: 2, simplify: false },
			asTool: true,
			typeVersion: 1,
		});
		expect(turnedOff.items[0].json).toHaveProperty('company.name');
	});
});

describe('what a run cost, on its items', () => {
	it('Unlock: every contact item carries the credits the run charged and the balance after it', async () => {
		const previews = await contacts(sandbox, 3);
		await api(sandbox, 'POST', PATHS.unlock, { ids: [previews[0].id], level: 'basic' });
		const result = await run(sandbox, {
			parameters: unlock(),
			inputItems: previews.map((preview) => ({ json: { ...preview } as IDataObject })),
		});
		expect(result.error).toBeUndefined();
		const after = await balance(sandbox);
		expect(result.items).toHaveLength(3);
		for (const item of result.items) {
			expect(item.json).toMatchObject({ credits_charged_in_run: 2, credits_remaining: after });
		}
		expect((await keyStats(sandbox)).credits_charged).toBe(3);
	});

	it('Enrich: the run’s total and the balance after the last call, also with Simplify', async () => {
		const ids = (await contacts(sandbox, 40))
			.filter((contact) => contact.has_email)
			.slice(0, 2)
			.map(({ id }) => id);
		const { body } = await api<{ contacts: Array<{ email: string }> }>(
			sandbox,
			'POST',
			PATHS.unlock,
			{
				ids,
				level: 'basic',
			},
		);
		await sandbox.admin.reset();
		const result = await run(sandbox, {
			parameters: {
				resource: 'contact',
				operation: 'enrich',
				email: '={{ $json.email }}',
				simplify: true,
			},
			inputItems: body.contacts.map(({ email }) => ({ json: { email } })),
		});
		expect(result.error).toBeUndefined();
		const after = await balance(sandbox);
		for (const item of result.items) {
			expect(item.json).toMatchObject({ credits_charged_in_run: 2, credits_remaining: after });
		}
	});
});

describe('once-per-run operations', () => {
	it('Get Balance after 20 items: one call and one item, paired with every input item', async () => {
		const inputItems = Array.from({ length: 20 }, (_, index) => ({ json: { index } }));
		const result = await run(sandbox, {
			parameters: { resource: 'credits', operation: 'getBalance' },
			inputItems,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ balance: expect.any(Number), tier: 'growth' });
		expect(result.items[0].pairedItem).toEqual(inputItems.map((_, item) => ({ item })));
		expect((await keyStats(sandbox)).requests[`GET ${PATHS.creditsBalance}`]).toBe(1);
	});

	it('Saved List → Get Many: once for all items, or per item when Limit is an expression', async () => {
		const inputItems = [{ json: { limit: 1 } }, { json: { limit: 2 } }, { json: { limit: 3 } }];
		for (const name of ['A', 'B', 'C'])
			await api(sandbox, 'POST', PATHS.lists, { name, contact_ids: [] });
		const once = await run(sandbox, {
			parameters: { resource: 'savedList', operation: 'getMany', limit: 2 },
			inputItems,
		});
		expect(once.items).toHaveLength(2);
		expect(once.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect((await keyStats(sandbox)).requests[`GET ${PATHS.lists}`]).toBe(1);

		const perItem = await run(sandbox, {
			parameters: { resource: 'savedList', operation: 'getMany', limit: '={{ $json.limit }}' },
			inputItems,
		});
		expect(perItem.items.map((item) => item.pairedItem)).toEqual(
			[0, 1, 1, 2, 2, 2].map((item) => ({ item })),
		);
	});
});

describe('the AI tool variant', () => {
	const parametersOf = (
		description: ReturnType<typeof toolVariant>['description'],
		parameters: INodeParameters,
	) =>
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			{ typeVersion: 1 } as INode,
			description,
		);

	it('Export offers items only, no binary file; on the canvas a file stays the default', async () => {
		const tool = toolVariant().description;
		const canvas = new (toolVariant().constructor as new () => ReturnType<typeof toolVariant>)()
			.description;
		const exportParameters = { resource: 'savedList', operation: 'export' };
		expect(parametersOf(tool, exportParameters)).toMatchObject({ outputAs: 'items' });
		expect(parametersOf(canvas, exportParameters)).toMatchObject({
			outputAs: 'binary',
			format: 'csv',
		});
		const offered = tool.properties
			.filter((property) => property.name === 'outputAs')
			.filter((property) =>
				NodeHelpers.displayParameter(exportParameters, property, { typeVersion: 1 } as INode, tool),
			)
			.flatMap((property) =>
				(property.options ?? []).map((option) => (option as { value: string }).value),
			);
		expect(offered).toEqual(['items']);
	});
});
