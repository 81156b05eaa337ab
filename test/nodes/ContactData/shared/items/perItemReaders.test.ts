/**
 * Version 2 reads per-item values from a field of each input item (no expression per item): Contact
 * ID Field for Unlock, Add and Remove Contacts; Email Field and LinkedIn URL Field for Enrich. Dotted
 * paths, clear errors before anything is sent, and version 1 as it was.
 */
import { NodeHelpers, type IDataObject, type INode, type INodeParameters } from 'n8n-workflow';

import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { PATHS, type SavedList } from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import { api, contacts, keyStats, run, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
let ids: string[];
let people: Array<{ id: string; email: string; linkedin_url: string }>;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 5_000 });
	const found = await contacts(sandbox, 60);
	ids = found.map((contact) => contact.id);
	const withEmail = found.filter((contact) => contact.has_email).map((contact) => contact.id);
	const { body } = await api<{ contacts: typeof people }>(sandbox, 'POST', PATHS.unlock, {
		ids: withEmail.slice(0, 3),
		level: 'basic',
	});
	people = body.contacts;
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const unlock = (parameters: Record<string, unknown> = {}) => ({
	resource: 'contact',
	operation: 'unlock',
	maxCredits: 100,
	...parameters,
});
const enrich = (parameters: Record<string, unknown> = {}) => ({
	resource: 'contact',
	operation: 'enrich',
	maxCredits: 100,
	...parameters,
});
const requestsTotal = async () => (await sandbox.admin.stats()).requests_total;

/** The parameters n8n keeps for a node of this version: defaults of what the version displays. */
function parametersOf(typeVersion: number, parameters: INodeParameters): INodeParameters {
	const description = new ContactData().description;
	const node = { typeVersion, parameters } as unknown as INode;
	return (
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {}
	);
}

describe('the parameters of each version', () => {
	it('version 2 names the input field (id), version 1 keeps its Contact IDs expression', () => {
		const description = new ContactData().description;
		expect(description.version).toEqual([1, 2, 2.1, 2.2]);
		const v1 = parametersOf(1, { resource: 'contact', operation: 'unlock' });
		expect(v1.contactIds).toBe('={{ $json.id }}');
		expect(v1).not.toHaveProperty('contactIdsFrom');
		expect(v1).not.toHaveProperty('contactIdField');
		const v2 = parametersOf(2, { resource: 'contact', operation: 'unlock' });
		expect(v2).toMatchObject({ contactIdsFrom: 'field', contactIdField: 'id' });
		expect(v2).not.toHaveProperty('contactIds');
		const v2Expression = parametersOf(2, {
			resource: 'contact',
			operation: 'unlock',
			contactIdsFrom: 'expression',
		});
		expect(v2Expression.contactIds).toBe('={{ $json.id }}');
	});

	it('Add and Remove Contacts name the field the same way; Enrich reads email and linkedin_url', () => {
		for (const operation of ['addContacts', 'removeContacts']) {
			expect(parametersOf(2, { resource: 'savedList', operation })).toMatchObject({
				contactIdsFrom: 'field',
				contactIdField: 'id',
			});
			expect(parametersOf(1, { resource: 'savedList', operation }).contactIds).toBe(
				'={{ $json.id }}',
			);
		}
		const v2 = parametersOf(2, { resource: 'contact', operation: 'enrich' });
		expect(v2).toMatchObject({
			personFrom: 'fields',
			emailField: 'email',
			linkedinUrlField: 'linkedin_url',
		});
		expect(v2).not.toHaveProperty('email');
		const v1 = parametersOf(1, { resource: 'contact', operation: 'enrich' });
		expect(v1).toMatchObject({ email: '', linkedinUrl: '' });
		expect(v1).not.toHaveProperty('personFrom');
	});
});

describe('Unlock, version 2', () => {
	it('reads the id field of each item by default', async () => {
		const result = await run(sandbox, {
			typeVersion: 2,
			parameters: unlock(),
			inputItems: ids.slice(0, 3).map((id) => ({ json: { id, name: 'x' } })),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.id, item.json.unlocked])).toEqual(
			ids.slice(0, 3).map((id) => [id, true]),
		);
		expect((await keyStats(sandbox)).credits_charged).toBe(3);
	});

	it('reads a dotted path, and an array of ids or ids separated by commas at it', async () => {
		const result = await run(sandbox, {
			typeVersion: 2,
			parameters: unlock({ contactIdField: 'person.ids' }),
			inputItems: [
				{ json: { person: { ids: [ids[0], ids[1]] } } },
				{ json: { person: { ids: `${ids[2]}, ${ids[3]}` } } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.id, item.pairedItem])).toEqual([
			[ids[0], { item: 0 }],
			[ids[1], { item: 0 }],
			[ids[2], { item: 1 }],
			[ids[3], { item: 1 }],
		]);
	});

	it('an item without the field: an error naming the field and the item, before anything is sent', async () => {
		const result = await run(sandbox, {
			typeVersion: 2,
			parameters: unlock(),
			inputItems: [{ json: { id: ids[0] } }, { json: { contact_id: ids[1], name: 'Ada' } }],
		});
		expect(result.error?.message).toBe(
			'Contact ID Field: "id" is not a field of the input item; type the field that holds the ID, e.g. contact_id [item 1]',
		);
		expect(result.error?.description).toMatch(
			/The item has the fields contact_id, name\. .*Contact IDs From → An Expression/,
		);
		expect(await requestsTotal()).toBe(0);
	});

	it('a value of the wrong type: an error naming the field, the value and the item, before anything is sent', async () => {
		const cases: Array<[IDataObject[string], string]> = [
			[42, 'Contact ID Field "id": "42" is not a contact id (ct_…)'],
			[{ name: 'Ada' }, 'Contact ID Field "id": {"name":"Ada"} is not a contact id (ct_…)'],
			[null, 'Contact ID Field "id": (empty) has no contact id'],
		];
		for (const [value, message] of cases) {
			const result = await run(sandbox, {
				typeVersion: 2,
				parameters: unlock(),
				inputItems: [{ json: { id: ids[0] } }, { json: { id: value } }],
			});
			expect(result.error?.message).toBe(
				`${message}; type a contact ID, e.g. ct_7k2m9x4q1p [item 1]`,
			);
		}
		expect(await requestsTotal()).toBe(0);
	});

	it('under continueOnFail the item without the field becomes an error item; the others are unlocked', async () => {
		const result = await run(sandbox, {
			typeVersion: 2,
			continueOnFail: true,
			parameters: unlock(),
			inputItems: [{ json: { id: ids[0] } }, { json: {} }],
		});
		expect(result.items[0].json).toMatchObject({ id: ids[0], unlocked: true });
		expect(result.items[1]).toMatchObject({
			json: {
				error:
					'Contact ID Field: "id" is not a field of the input item; type the field that holds the ID, e.g. id [item 1]',
			},
			pairedItem: { item: 1 },
		});
	});

	it('"An Expression" keeps the Contact IDs parameter', async () => {
		const result = await run(sandbox, {
			typeVersion: 2,
			parameters: unlock({ contactIdsFrom: 'expression', contactIds: '={{ $json.other }}' }),
			inputItems: [{ json: { id: ids[0], other: ids[1] } }],
		});
		expect(result.items.map((item) => item.json.id)).toEqual([ids[1]]);
	});
});

describe('version 1, as it was', () => {
	it('reads the Contact IDs parameter, whatever the item’s id field holds', async () => {
		const result = await run(sandbox, {
			typeVersion: 1,
			parameters: unlock({
				contactIds: '={{ $json.other }}',
				contactIdsFrom: 'field',
				contactIdField: 'id',
			}),
			inputItems: [{ json: { id: ids[0], other: ids[1] } }],
		});
		expect(result.items.map((item) => item.json.id)).toEqual([ids[1]]);
	});

	it('Enrich reads its Email parameter', async () => {
		const result = await run(sandbox, {
			typeVersion: 1,
			parameters: enrich({ email: '={{ $json.work }}' }),
			inputItems: [{ json: { work: people[0].email, email: people[1].email } }],
		});
		expect(result.items.map((item) => item.json.id)).toEqual([people[0].id]);
	});
});

describe('Enrich, version 2', () => {
	it('reads the email field, or the linkedin_url field, of each item by default', async () => {
		const result = await run(sandbox, {
			typeVersion: 2,
			parameters: enrich(),
			inputItems: [
				{ json: { email: people[0].email } },
				{ json: { linkedin_url: people[1].linkedin_url, email: null } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual([people[0].id, people[1].id]);
	});

	it('reads dotted paths', async () => {
		const result = await run(sandbox, {
			typeVersion: 2,
			parameters: enrich({ emailField: 'person.work.email', linkedinUrlField: '' }),
			inputItems: [
				{ json: { person: { work: { email: people[2].email } }, email: people[0].email } },
			],
		});
		expect(result.items.map((item) => item.json.id)).toEqual([people[2].id]);
	});

	it('an item with neither, or a value that is not text: an error naming the fields and the item, nothing sent', async () => {
		const neither = await run(sandbox, {
			typeVersion: 2,
			parameters: enrich(),
			inputItems: [{ json: { email: people[0].email } }, { json: { name: 'Ada', email: '' } }],
		});
		expect(neither.error?.message).toBe(
			'Email Field "email" and LinkedIn URL Field "linkedin_url": the item has a value at neither; type the field that holds one, e.g. email [item 1]',
		);
		expect(neither.error?.description).toMatch(
			/the item has "email": \(empty\), "linkedin_url": \(empty\), and the fields name, email\./,
		);
		const notText = await run(sandbox, {
			typeVersion: 2,
			parameters: enrich(),
			inputItems: [{ json: { email: people[0].email } }, { json: { email: ['a@b.co'] } }],
		});
		expect(notText.error?.message).toMatch(/^Email Field "email": \["a@b.co"\] is not text; type /);
		const badEmail = await run(sandbox, {
			typeVersion: 2,
			parameters: enrich(),
			inputItems: [{ json: { email: 'not-an-email' } }],
		});
		expect(badEmail.error?.message).toMatch(
			/^Email Field "email": "not-an-email" must be an email address; type an email address, e\.g\. /,
		);
		expect(await requestsTotal()).toBe(0);
	});
});

describe('Add and Remove Contacts, version 2', () => {
	it('read the id field of every item', async () => {
		const { body: list } = await api<SavedList>(sandbox, 'POST', PATHS.lists, {
			name: 'Fields',
			contact_ids: [],
		});
		const listId = { __rl: true, mode: 'id', value: list.id };
		const added = await run(sandbox, {
			typeVersion: 2,
			parameters: { resource: 'savedList', operation: 'addContacts', listId },
			inputItems: ids.slice(0, 20).map((id) => ({ json: { id } })),
		});
		expect(added.items.map((item) => [item.json.added, item.json.contact_count])).toEqual([
			[20, 20],
		]);
		const removed = await run(sandbox, {
			typeVersion: 2,
			parameters: {
				resource: 'savedList',
				operation: 'removeContacts',
				listId,
				contactIdField: 'c.id',
			},
			inputItems: ids.slice(0, 5).map((id) => ({ json: { c: { id } } })),
		});
		expect(removed.items.map((item) => [item.json.removed, item.json.contact_count])).toEqual([
			[5, 15],
		]);
	});
});
