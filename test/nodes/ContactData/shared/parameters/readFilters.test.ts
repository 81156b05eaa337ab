/**
 * Version 2.2's one Filters section: the API's other filters by name inside it, each value read as
 * the named filters read theirs (text, numbers and true/false as typed, lists separated by commas),
 * no JSON. Sent to the sandbox for the names it knows, to a fake API that records the body for
 * names only the real service knows (the sandbox answers 400 for those, as the service does for a
 * name it does not know).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PATHS } from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import { json, startFakeApi, type FakeApi } from '../../../../support/fakeApi.cjs';
import { run, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
let fake: FakeApi;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 5_000 });
	fake = await startFakeApi((_request, res) =>
		json(res, 200, { results: [], total: 0, next_cursor: null, truncated: false }),
	);
});
afterAll(async () => {
	await fake?.close();
	await sandbox?.close();
});
beforeEach(async () => sandbox.admin.reset());

type Other = Array<{ name: string; value: string }>;
const search = (other: Other, named: INodeParameters = {}): INodeParameters => ({
	resource: 'contact',
	operation: 'search',
	filters: { ...named, otherFilters: { filter: other } },
	limit: 20,
});

/** The filters a 2.2 search sent, as the fake API received them. */
async function sentFilters(other: Other): Promise<unknown> {
	const before = fake.requests.length;
	const result = await run(sandbox, {
		typeVersion: 2.2,
		parameters: search(other),
		baseUrl: fake.url,
	});
	expect(result.error).toBeUndefined();
	const [request] = fake.requests.slice(before);
	expect(request).toMatchObject({ method: 'POST', path: PATHS.search });
	return (request.body as { filters: unknown }).filters;
}

it('reads each value as typed: a list at its commas, a number, true/false, text', async () => {
	expect(
		await sentFilters([
			{ name: 'revenue_range', value: '10m-50m, 50m-100m' },
			{ name: 'headcount_growth_min', value: '25' },
			{ name: 'is_hiring', value: 'True' },
			{ name: 'hq_city', value: ' Berlin ' },
			{ name: 'postal_code', value: '02134' },
			{ name: 'ownership', value: 'public,' },
			{ name: 'left_empty', value: '' },
		]),
	).toEqual({
		revenue_range: ['10m-50m', '50m-100m'],
		headcount_growth_min: 25,
		is_hiring: true,
		hq_city: 'Berlin',
		postal_code: '02134',
		ownership: ['public'],
	});
});

it('takes a list, number or true/false an expression gives as it is, and no JSON from text', async () => {
	expect(
		await sentFilters([
			{ name: 'revenue_range', value: '={{ ["10m-50m"] }}' },
			{ name: 'headcount_growth_min', value: '={{ 10 + 5 }}' },
			{ name: 'note', value: '["typed", "as text"]' },
		]),
	).toEqual({
		revenue_range: ['10m-50m'],
		headcount_growth_min: 15,
		note: ['["typed"', '"as text"]'],
	});
});

it('sends filters the sandbox knows in the form the API expects, so it matches on them', async () => {
	const result = await run(sandbox, {
		typeVersion: 2.2,
		parameters: {
			...search([
				{ name: 'funding_stage', value: 'series_a, series_b' },
				{ name: 'company_size', value: '1-200' },
				{ name: 'country', value: 'us' },
			]),
			simplify: false,
		},
	});
	expect(result.error).toBeUndefined();
	expect(result.items.length).toBeGreaterThan(0);
	for (const { json: contact } of result.items) {
		const company = contact.company as IDataObject;
		expect(['series_a', 'series_b']).toContain(company.funding_stage);
		expect(company.size).toBeLessThanOrEqual(200);
		expect((contact.location as IDataObject).country).toBe('US');
	}
});

it('Saved List → Create saves the other filters with the named ones', async () => {
	const result = await run(sandbox, {
		typeVersion: 2.2,
		parameters: {
			resource: 'savedList',
			operation: 'create',
			name: 'Series A in the US',
			filters: {
				seniority: ['vp'],
				otherFilters: { filter: [{ name: 'funding_stage', value: 'series_a' }] },
			},
		},
	});
	expect(result.error).toBeUndefined();
	// One value for a filter the node knows to be a list is a list of one, as the named filters read it.
	expect(result.items[0].json.filters).toEqual({ seniority: ['vp'], funding_stage: ['series_a'] });
});

it('names the section and the filter in a refusal, before anything is sent', async () => {
	const before = fake.requests.length;
	const unnamed = await run(sandbox, {
		typeVersion: 2.2,
		parameters: search([{ name: ' ', value: 'x' }]),
		baseUrl: fake.url,
	});
	expect(unnamed.error?.message).toMatch(/^Other Filters by API Name: .* is not a filter name/);
	const badCountry = await run(sandbox, {
		typeVersion: 2.2,
		parameters: search([{ name: 'country', value: 'Germany' }]),
		baseUrl: fake.url,
	});
	expect(badCountry.error?.message).toMatch(/^Other Filters by API Name › country: "Germany"/);
	expect(fake.requests.length).toBe(before);
});

describe('a filter name that every JavaScript object has (constructor, __proto__, toString…)', () => {
	// n8n's engines drop some of these on the way (n8n-core's request helper drops `constructor`,
	// the body's check `__proto__`): each is refused by name before anything is sent, in every version.
	const names = [...new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__'])];
	const fields: Array<[string, number, (name: string) => INodeParameters]> = [
		['Other Filters by API Name', 2.2, (name) => search([{ name, value: '1' }])],
		[
			'Additional Filters',
			2,
			(name) => ({
				resource: 'contact',
				operation: 'search',
				additionalFilters: { filter: [{ name, value: '1' }] },
			}),
		],
		[
			'Additional Filters (JSON)',
			1,
			(name) => ({ resource: 'contact', operation: 'search', filtersJson: `{"${name}": 1}` }),
		],
	];

	it('are the 12 names of Object.prototype', () => {
		expect(names).toHaveLength(12);
	});

	it.each(fields)('%s (version %s): refused with the name', async (label, typeVersion, of) => {
		const before = fake.requests.length;
		for (const name of names) {
			const result = await run(sandbox, {
				typeVersion,
				parameters: of(name),
				baseUrl: fake.url,
			});
			expect(result.error?.message).toMatch(
				new RegExp(`^${label.replace(/[()]/g, '\\$&')}: "${name}" is not a filter name`),
			);
			expect(result.error?.description).toMatch(/Nothing was sent\./);
		}
		expect(fake.requests.length).toBe(before);
	});
});

it('sends a number JavaScript cannot hold exactly as the digits typed, as text', async () => {
	expect(
		await sentFilters([
			{ name: 'crm_account_id', value: '12345678901234567890' },
			{ name: 'above_safe', value: '9007199254740993' },
			{ name: 'fine_decimal', value: '1.00000000000000000001' },
			{ name: 'largest_safe', value: '9007199254740991' },
			{ name: 'ratio', value: '0.1' },
			{ name: 'trailing_zero', value: '2.50' },
			{ name: 'negative', value: '-12' },
			{ name: 'tiny', value: '0.0000001' },
		]),
	).toEqual({
		crm_account_id: '12345678901234567890',
		above_safe: '9007199254740993',
		fine_decimal: '1.00000000000000000001',
		largest_safe: 9007199254740991,
		ratio: 0.1,
		trailing_zero: 2.5,
		negative: -12,
		tiny: 1e-7,
	});
});
