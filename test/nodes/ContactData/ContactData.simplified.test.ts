/**
 * Simplify by n8n's guideline (from version 2.1): at most 10 fields per item, the ones people map
 * first, the contact's id always kept; from 2.2 (the default for new nodes) on by default, with what
 * the run cost. Versions 1 and 2 keep their wider items, field for field, because saved workflows
 * map them.
 */
import { NodeHelpers, type IDataObject, type INode, type INodeParameters } from 'n8n-workflow';

import { ContactData } from '../../../nodes/ContactData/ContactData.node';
import { startTestSandbox } from '../../harness/sandbox';
import { contacts, run, type TestSandbox } from './setup';

let sandbox: TestSandbox;
let previews: IDataObject[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 3_000 });
	previews = (await contacts(sandbox, 40))
		.filter((contact) => contact.has_email)
		.slice(0, 2) as unknown as IDataObject[];
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const search = { resource: 'contact', operation: 'search', limit: 3, simplify: true };
const unlock = (more: IDataObject = {}) => ({
	resource: 'contact',
	operation: 'unlock',
	maxCredits: 100,
	level: 'premium',
	simplify: true,
	contactIds: '={{ $json.id }}',
	...more,
});
const enrich = {
	resource: 'contact',
	operation: 'enrich',
	personFrom: 'expression',
	email: '={{ $json.email }}',
	simplify: true,
	options: { outputNoMatch: true },
};
/** As a new node saves them: Simplify left at its default. */
const unset = (parameters: INodeParameters): INodeParameters =>
	Object.fromEntries(Object.entries(parameters).filter(([name]) => name !== 'simplify'));
const inputOf = (records: IDataObject[]) => records.map((json) => ({ json: { ...json } }));

/** Each operation's simplified items in one version. */
async function simplified(typeVersion: number) {
	const searched = await run(sandbox, { typeVersion, parameters: search });
	const unlocked = await run(sandbox, {
		typeVersion,
		parameters: unlock(),
		inputItems: inputOf(previews),
	});
	const enriched = await run(sandbox, {
		typeVersion,
		parameters: enrich,
		inputItems: [{ json: { email: unlocked.items[0]?.json.email } }],
	});
	for (const { error } of [searched, unlocked, enriched]) expect(error).toBeUndefined();
	return { searched, unlocked, enriched };
}

/** The Simplify parameters the editor shows for `values` in a version, on the canvas. */
function simplifyShown(typeVersion: number, values: INodeParameters = search) {
	const { description } = new ContactData();
	const node = { typeVersion, parameters: {} } as unknown as INode;
	return description.properties.filter(
		(property) =>
			property.name === 'simplify' &&
			NodeHelpers.displayParameter(values, property, node, description),
	);
}

describe('version 2.2', () => {
	it('is the version a new node gets', () => {
		const { version, defaultVersion } = new ContactData().description;
		expect(version).toEqual([1, 2, 2.1, 2.2]);
		expect(defaultVersion).toBe(2.2);
	});

	it('Simplify is on by default, as n8n’s rule and its own nodes have it', () => {
		for (const operation of ['search', 'unlock', 'enrich']) {
			const shown = simplifyShown(2.2, { resource: 'contact', operation });
			expect(shown.map((property) => property.default)).toEqual([true]);
		}
	});

	it('a new Unlock, Search and Enrich give simplified items, what the run cost among them', async () => {
		const typeVersion = 2.2;
		const searched = await run(sandbox, { typeVersion, parameters: unset(search) });
		const unlocked = await run(sandbox, {
			typeVersion,
			parameters: unset(unlock()),
			inputItems: inputOf(previews),
		});
		const enriched = await run(sandbox, {
			typeVersion,
			parameters: unset(enrich),
			inputItems: [{ json: { email: unlocked.items[0]?.json.email } }],
		});
		for (const { error } of [searched, unlocked, enriched]) expect(error).toBeUndefined();
		for (const { json } of [...searched.items, ...unlocked.items, ...enriched.items]) {
			expect(Object.keys(json).length).toBeLessThanOrEqual(10);
			expect(json.company).toBeUndefined();
		}
		expect(Object.keys(unlocked.items[0].json)).toEqual([
			'name',
			'title',
			'company_name',
			'email',
			'phone',
			'linkedin_url',
			'id',
			'credits_charged_in_run',
			'credits_remaining',
			'email_status',
		]);
		// Premium: 2 credits for each of the two contacts; the enrich finds one already held.
		expect(unlocked.items[1].json).toMatchObject({ credits_charged_in_run: 4 });
		expect(unlocked.items[1].json.credits_remaining).toEqual(expect.any(Number));
		expect(enriched.items[0].json).toMatchObject({
			id: previews[0].id,
			matched: true,
			credits_charged_in_run: 0,
		});
		expect(Object.keys(searched.items[0].json).slice(0, 4)).toEqual([
			'name',
			'title',
			'company_name',
			'id',
		]);
	});

	it('Simplify off gives the full record, as before', async () => {
		const result = await run(sandbox, {
			typeVersion: 2.2,
			parameters: unlock({ simplify: false }),
			inputItems: inputOf(previews),
		});
		expect(result.items[0].json).toMatchObject({
			company: expect.any(Object),
			credits_charged_in_run: 4,
		});
	});
});

describe('version 2.1', () => {
	it('Simplify stays off by default, so saved workflows keep their items', async () => {
		expect(simplifyShown(2.1).map((property) => property.default)).toEqual([false]);
		const result = await run(sandbox, {
			typeVersion: 2.1,
			parameters: unset(unlock()),
			inputItems: inputOf(previews),
		});
		expect(result.items[0].json.company).toEqual(expect.any(Object));
	});

	it('Search, Unlock and Enrich: at most 10 fields, name, title and company first, the id kept', async () => {
		const { searched, unlocked, enriched } = await simplified(2.1);
		const all = [...searched.items, ...unlocked.items, ...enriched.items];
		expect(all).toHaveLength(3 + 2 + 1);
		for (const { json } of all) {
			expect(Object.keys(json).length).toBeLessThanOrEqual(10);
			expect(Object.keys(json).slice(0, 3)).toEqual(['name', 'title', 'company_name']);
			expect(json.id).toEqual(expect.stringMatching(/^ct_/));
		}
		expect(Object.keys(searched.items[0].json)).toEqual([
			'name',
			'title',
			'company_name',
			'id',
			'company_domain',
			'seniority',
			'country',
			'unlocked',
			'has_email',
			'has_phone',
		]);
		expect(unlocked.items.map(({ json }) => json.id)).toEqual(previews.map(({ id }) => id));
		expect(Object.keys(unlocked.items[0].json)).toEqual([
			'name',
			'title',
			'company_name',
			'email',
			'phone',
			'linkedin_url',
			'id',
			'email_status',
			'company_domain',
			'seniority',
		]);
		// What a workflow branches on stays: Output No-Match Items' matched.
		expect(enriched.items[0].json).toMatchObject({ id: previews[0].id, matched: true });
	});

	it('an item Unlock passes over keeps the id and why it was not sent', async () => {
		const result = await run(sandbox, {
			typeVersion: 2.1,
			parameters: unlock({ maxCredits: 2, whenMaxCreditsReached: 'whatFits' }),
			inputItems: inputOf(previews),
		});
		expect(result.error).toBeUndefined();
		const passedOver = result.items[1].json;
		expect(Object.keys(passedOver).length).toBeLessThanOrEqual(10);
		expect(passedOver).toMatchObject({ id: previews[1].id, unlock_skipped: 'budget' });
	});

	it('the parameter has the guideline’s name and description', () => {
		const shown = simplifyShown(2.1);
		expect(shown).toHaveLength(1);
		expect(shown[0]).toMatchObject({
			displayName: 'Simplify',
			default: false,
			description: 'Whether to return a simplified version of the response instead of the raw data',
		});
	});
});

// The fields saved workflows of versions 1 and 2 map, as they were before version 2.1.
const BEFORE = {
	searched:
		'name,title,company_name,id,first_name,last_name,seniority,department,company_domain,country,has_email,has_phone,unlocked',
	unlocked:
		'name,title,company_name,email,phone,linkedin_url,id,first_name,last_name,seniority,department,company_domain,country,email_status,mobile_phone,has_email,has_phone,unlocked,level,credits_charged_in_run,credits_remaining',
	enriched:
		'name,title,company_name,email,phone,linkedin_url,id,first_name,last_name,seniority,department,company_domain,country,email_status,mobile_phone,has_email,has_phone,unlocked,level,matched,credits_charged_in_run,credits_remaining',
};

it.each([1, 2])('version %s keeps its simplified items field for field', async (typeVersion) => {
	const runs = await simplified(typeVersion);
	for (const [operation, fields] of Object.entries(BEFORE)) {
		const items = runs[operation as keyof typeof runs].items;
		for (const { json } of items) expect(Object.keys(json).join(',')).toBe(fields);
	}
});
