/**
 * Version 2.1 drops "Contact IDs From" and "Person From": n8n's own Fixed/Expression switch already
 * makes that choice. A field name (Fixed) is read once, from the first item, and each item's value
 * is read at that field; an expression gives each item's value itself. As an agent's tool the
 * model gives the values. Each field parameter says in its hint that every item is read at it.
 */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { PATHS } from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import { api, contacts, run, type TestSandbox } from '../../setup';

const description = new ContactData().description;
const asTool: INodeTypeDescription = { ...description, name: `${description.name}Tool` };

/** The parameters the editor shows for a node saved with `saved`, and the values n8n keeps. */
function panel(typeVersion: number, type: INodeTypeDescription, saved: INodeParameters) {
	const node = { typeVersion, parameters: saved } as unknown as INode;
	const values =
		NodeHelpers.getNodeParameters(description.properties, saved, true, false, node, type) ?? {};
	const shown = description.properties.filter((property) =>
		NodeHelpers.displayParameter(values, property, node, type),
	);
	const byName = (name: string) => shown.find((property) => property.name === name);
	return { names: shown.map(({ name }) => name), values, byName };
}

const FROM_AI = expect.stringMatching(/^=\{\{ \$fromAI\(/);
const ID_OPERATIONS: INodeParameters[] = [
	{ resource: 'contact', operation: 'unlock' },
	{ resource: 'savedList', operation: 'addContacts' },
	{ resource: 'savedList', operation: 'removeContacts' },
	{ resource: 'savedList', operation: 'create', createFrom: 'contactIds' },
];

describe('the parameters of version 2.1', () => {
	it.each(ID_OPERATIONS)('$operation: Contact ID Field, no Contact IDs From', (saved) => {
		const canvas = panel(2.1, description, saved);
		expect(canvas.values).toMatchObject({ contactIdField: 'id' });
		expect(canvas.names).not.toContain('contactIdsFrom');
		expect(canvas.names).not.toContain('contactIds');
		const tool = panel(2.1, asTool, saved);
		expect(tool.values).toMatchObject({ contactIds: FROM_AI });
		expect(tool.names).not.toContain('contactIdsFrom');
		expect(tool.names).not.toContain('contactIdField');
	});

	it('Enrich: Email Field and LinkedIn URL Field, no Person From; a tool’s values from the model', () => {
		const saved = { resource: 'contact', operation: 'enrich' };
		const canvas = panel(2.1, description, saved);
		expect(canvas.values).toMatchObject({ emailField: 'email', linkedinUrlField: 'linkedin_url' });
		for (const name of ['personFrom', 'email', 'linkedinUrl'])
			expect(canvas.names).not.toContain(name);
		const tool = panel(2.1, asTool, saved);
		expect(tool.values).toMatchObject({ email: FROM_AI, linkedinUrl: FROM_AI });
		for (const name of ['personFrom', 'emailField', 'linkedinUrlField'])
			expect(tool.names).not.toContain(name);
	});

	it.each([2, 2.1])(
		'version %s: each field parameter says every item is read at it',
		(typeVersion) => {
			const hintOf = (saved: INodeParameters, name: string) =>
				(panel(typeVersion, description, saved).byName(name) as INodeProperties).hint;
			const hints = [
				hintOf({ resource: 'contact', operation: 'unlock' }, 'contactIdField'),
				hintOf({ resource: 'contact', operation: 'enrich' }, 'emailField'),
				hintOf({ resource: 'contact', operation: 'enrich' }, 'linkedinUrlField'),
			];
			for (const hint of hints)
				expect(hint).toMatch(/^Each item is read at this field: drag it here/);
			if (typeVersion === 2.1)
				for (const hint of hints)
					expect(hint).toMatch(/Or switch to Expression to get each item's [a-zA-Z ]+\.$/);
		},
	);
});

describe('reading the values, version 2.1', () => {
	let sandbox: TestSandbox;
	let ids: string[];
	let people: Array<{ id: string; email: string }>;
	beforeAll(async () => {
		sandbox = await startTestSandbox({ contacts: 3_000 });
		const found = await contacts(sandbox, 40);
		ids = found.map((contact) => contact.id);
		const withEmail = found.filter((contact) => contact.has_email).map(({ id }) => id);
		const { body } = await api<{ contacts: typeof people }>(sandbox, 'POST', PATHS.unlock, {
			ids: withEmail.slice(0, 2),
			level: 'basic',
		});
		people = body.contacts;
	});
	afterAll(async () => sandbox?.close());
	beforeEach(async () => sandbox.admin.reset());

	const unlock = (more: INodeParameters = {}): INodeParameters => ({
		resource: 'contact',
		operation: 'unlock',
		maxCredits: 100,
		...more,
	});

	it('Unlock reads the id field by default, or the IDs an expression gives', async () => {
		const byField = await run(sandbox, {
			typeVersion: 2.1,
			parameters: unlock(),
			inputItems: [{ json: { id: ids[0], other: ids[1] } }],
		});
		expect(byField.items.map((item) => item.json.id)).toEqual([ids[0]]);
		const byExpression = await run(sandbox, {
			typeVersion: 2.1,
			parameters: unlock({ contactIdField: '={{ $json.other }}' }),
			inputItems: [
				{ json: { id: ids[0], other: ids[1] } },
				{ json: { id: ids[0], other: [ids[2], ids[3]] } },
			],
		});
		expect(byExpression.error).toBeUndefined();
		expect(byExpression.items.map((item) => [item.json.id, item.pairedItem])).toEqual([
			[ids[1], { item: 0 }],
			[ids[2], { item: 1 }],
			[ids[3], { item: 1 }],
		]);
	});

	it('an item without the field: the advice names what 2.1 has', async () => {
		const result = await run(sandbox, {
			typeVersion: 2.1,
			parameters: unlock(),
			inputItems: [{ json: { contact_id: ids[0] } }],
		});
		expect(result.error?.message).toBe(
			'Contact ID Field: "id" is not a field of the input item; type the field that holds the ID, e.g. contact_id',
		);
		expect(result.error?.description).toMatch(/The item has the fields contact_id\./);
		expect(result.error?.description).not.toMatch(/Contact IDs From/);
	});

	it('Enrich reads the email field by default, or the email an expression gives', async () => {
		const enrich = (more: INodeParameters = {}) => ({
			resource: 'contact',
			operation: 'enrich',
			maxCredits: 100,
			...more,
		});
		const byField = await run(sandbox, {
			typeVersion: 2.1,
			parameters: enrich(),
			inputItems: [{ json: { email: people[0].email, work: people[1].email } }],
		});
		expect(byField.items.map((item) => item.json.id)).toEqual([people[0].id]);
		const byExpression = await run(sandbox, {
			typeVersion: 2.1,
			parameters: enrich({ emailField: '={{ $json.work }}' }),
			inputItems: [
				{ json: { email: people[0].email, work: people[1].email } },
				{ json: { email: people[1].email, work: people[0].email } },
			],
		});
		expect(byExpression.error).toBeUndefined();
		expect(byExpression.items.map((item) => item.json.id)).toEqual([people[1].id, people[0].id]);
	});
});
