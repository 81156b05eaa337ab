/**
 * A tool's Output parameter, by n8n's guideline (version 2.1): Simplified (the default, as Simplify),
 * Raw (every field) or Selected Fields (the contact's id always kept). Run as an agent's tool in
 * n8n's engine with a scripted model.
 */
import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ContactDataApi } from '../../../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { runAgent } from '../../../../harness/agent';
import { startTestSandbox } from '../../../../harness/sandbox';
import { KEYS, contacts, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
let ids: string[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 3_000 });
	ids = (await contacts(sandbox, 10)).map((contact) => contact.id);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

/** The contacts of the one answer of each tool call. */
async function answered(toolParameters: INodeParameters, rounds: IDataObject[][]) {
	const { toolCalls } = await runAgent({
		toolType: new ContactData(),
		typeVersion: 2.1,
		toolParameters,
		rounds,
		credentialTypes: [new ContactDataApi()],
		credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: sandbox.url } },
	});
	return toolCalls.map(({ items, error }) => {
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		return items[0].json.contacts as IDataObject[];
	});
}

const search = { resource: 'contact', operation: 'search' };
const unlock = { resource: 'contact', operation: 'unlock', maxCredits: 10 };

it('Simplified by default: at most 10 fields, as Simplify gives them', async () => {
	const [found, unlocked] = [
		...(await answered(search, [[{}]])),
		...(await answered(unlock, [[{ contact_ids: ids.slice(0, 2).join(',') }]])),
	];
	expect(found.length).toBeGreaterThan(0);
	for (const contact of [...found, ...unlocked]) {
		expect(Object.keys(contact).length).toBeLessThanOrEqual(10);
		expect(Object.keys(contact).slice(0, 3)).toEqual(['name', 'title', 'company_name']);
		expect(contact.id).toEqual(expect.stringMatching(/^ct_/));
	}
	expect(unlocked.map((contact) => contact.id)).toEqual(ids.slice(0, 2));
	expect(unlocked[0].email).toEqual(expect.stringContaining('@'));
});

it('Raw: every field of the record', async () => {
	const [unlocked] = await answered({ ...unlock, output: 'raw' }, [
		[{ contact_ids: ids.slice(0, 2).join(',') }],
	]);
	expect(unlocked.map((contact) => contact.id)).toEqual(ids.slice(0, 2));
	for (const contact of unlocked) {
		expect(contact).toHaveProperty('company.name');
		expect(contact).toHaveProperty('unlocked_at');
		expect(contact).toHaveProperty('first_name');
		expect(Object.keys(contact).length).toBeGreaterThan(10);
	}
});

it('Selected Fields: the id and the fields chosen, nothing else', async () => {
	const [found] = await answered(
		{ ...search, output: 'selectedFields', outputFields: ['title', 'company'] },
		[[{}]],
	);
	expect(found.length).toBeGreaterThan(0);
	for (const contact of found) {
		expect(Object.keys(contact)).toEqual(['id', 'title', 'company']);
		expect(contact.company).toHaveProperty('name');
	}
	const [unlocked] = await answered(
		{ ...unlock, output: 'selectedFields', outputFields: ['email'] },
		[[{ contact_ids: ids[3] }]],
	);
	expect(unlocked).toEqual([{ id: ids[3], email: expect.stringContaining('@') }]);
});

describe('the parameters', () => {
	const description = new ContactData().description;
	const asTool: INodeTypeDescription = { ...description, name: `${description.name}Tool` };
	/** The names of the parameters the editor shows, and the values n8n keeps. */
	function panel(typeVersion: number, type: INodeTypeDescription, saved: INodeParameters) {
		const node = { typeVersion, parameters: saved } as unknown as INode;
		const values =
			NodeHelpers.getNodeParameters(description.properties, saved, true, false, node, type) ?? {};
		const shown = description.properties.filter((property) =>
			NodeHelpers.displayParameter(values, property, node, type),
		);
		return { names: shown.map(({ name }) => name), values, shown };
	}

	it.each(['search', 'unlock', 'enrich'])(
		'%s as a tool in 2.1: Output instead of Simplify; Fields only for Selected Fields',
		(operation) => {
			const saved = { resource: 'contact', operation };
			const tool = panel(2.1, asTool, saved);
			expect(tool.values.output).toBe('simplified');
			expect(tool.names).toContain('output');
			expect(tool.names).not.toContain('simplify');
			expect(tool.names).not.toContain('outputFields');
			const output = tool.shown.find(({ name }) => name === 'output');
			expect(output?.options?.map((option) => (option as { name: string }).name)).toEqual(
				expect.arrayContaining(['Simplified', 'Raw', 'Selected Fields']),
			);
			const selected = panel(2.1, asTool, { ...saved, output: 'selectedFields' });
			expect(selected.names).toContain('outputFields');
			// The canvas keeps Simplify; version 2's tool keeps its Simplify, on by default.
			expect(panel(2.1, description, saved).names).not.toContain('output');
			expect(panel(2, asTool, saved).values).toMatchObject({ simplify: true });
			expect(panel(2, asTool, saved).names).not.toContain('output');
		},
	);
});
