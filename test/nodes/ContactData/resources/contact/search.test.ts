/** Contact → Search: filters as parameters and expressions, paging, the paging cap, pacing. */
import type { ContactPreview } from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import { hints, keyStats, run, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 20_000 });
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const search = (parameters: Record<string, unknown>) => ({
	resource: 'contact',
	operation: 'search',
	...parameters,
});

it('sends the named filters and returns one item per contact', async () => {
	const result = await run(sandbox, {
		parameters: search({
			filters: {
				seniority: ['vp', 'director'],
				country: 'us, gb',
				companySizeMin: 10,
				companySizeMax: 5000,
			},
			limit: 30,
		}),
	});
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(30);
	for (const { json, pairedItem } of result.items) {
		expect(['vp', 'director']).toContain(json.seniority);
		expect(['US', 'GB']).toContain((json.location as { country: string }).country);
		const size = (json.company as { size: number }).size;
		expect(size).toBeGreaterThanOrEqual(10);
		expect(size).toBeLessThanOrEqual(5000);
		expect(pairedItem).toEqual({ item: 0 });
	}
});

it('takes filter values from expressions: arrays and comma-separated strings, per item', async () => {
	const result = await run(sandbox, {
		parameters: search({
			filters: { seniority: '={{ $json.levels }}', title: '={{ $json.titles }}' },
			limit: 5,
		}),
		inputItems: [
			{ json: { levels: ['c_suite'], titles: 'chief' } },
			{ json: { levels: 'manager, senior', titles: ['engineer', 'developer'] } },
		],
	});
	expect(result.error).toBeUndefined();
	const first = result.items.filter((item) => (item.pairedItem as { item: number }).item === 0);
	const second = result.items.filter((item) => (item.pairedItem as { item: number }).item === 1);
	expect(first.length).toBeGreaterThan(0);
	expect(second.length).toBeGreaterThan(0);
	for (const { json } of first) {
		expect(json.seniority).toBe('c_suite');
		expect(String(json.title).toLowerCase()).toContain('chief');
	}
	for (const { json } of second) {
		expect(['manager', 'senior']).toContain(json.seniority);
		expect(String(json.title).toLowerCase()).toMatch(/engineer|developer/);
	}
});

it('sends additional filters by name and as JSON; an unknown one is a 400 naming the field and item', async () => {
	// Additional Filters (JSON) is version 1's only.
	const viaJson = await run(sandbox, {
		parameters: search({ filtersJson: '{"seniority": ["owner"]}', limit: 3 }),
		typeVersion: 1,
	});
	expect(viaJson.error).toBeUndefined();
	expect(viaJson.items.map((item) => item.json.seniority)).toEqual(['owner', 'owner', 'owner']);

	const byName = await run(sandbox, {
		parameters: search({
			additionalFilters: { filter: [{ name: 'funding_stage', value: '["seed"]' }] },
			limit: 3,
		}),
	});
	expect(
		byName.items.map((item) => (item.json.company as { funding_stage: string }).funding_stage),
	).toEqual(['seed', 'seed', 'seed']);

	const unknown = await run(sandbox, {
		parameters: search({
			additionalFilters: { filter: [{ name: 'annual_revenue', value: '["10m-50m"]' }] },
		}),
	});
	expect(unknown.error?.name).toBe('NodeApiError');
	expect(unknown.error?.httpCode).toBe('400');
	expect(unknown.error?.message).toMatch(/^Filter "annual_revenue": /);
	expect(unknown.error?.description).toMatch(/API field: filters\.annual_revenue/);
	expect(unknown.error?.message).not.toMatch(/\[item \d+\]/);
});

it('refuses bad filter values before sending, naming the parameter and item', async () => {
	// Additional Filters (JSON) is version 1's only.
	const cases: Array<[Record<string, unknown>, RegExp, number?]> = [
		[
			{ filters: { companySizeMin: 500, companySizeMax: 10 } },
			/Company Size.*"500-10" has a minimum greater than its maximum/,
		],
		[{ filters: { seniority: '={{ "vp, ceo" }}' } }, /Seniority/],
		[{ filters: { country: 'USA' } }, /Countries.*ISO 3166/],
		[{ filtersJson: '{"title": ' }, /Additional Filters \(JSON\): .* is not valid JSON/, 1],
	];
	for (const [parameters, message, typeVersion] of cases) {
		const result = await run(sandbox, { parameters: search(parameters), typeVersion });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(result.error?.message).not.toMatch(/\[item \d+\]/);
	}
	expect((await sandbox.admin.stats()).requests_total).toBe(0);
});

describe('filters in the user’s words', () => {
	it.each([
		[
			'department',
			'Customer Success',
			'customer_success',
			(json: ContactPreview) => json.department,
		],
		['department', 'human-resources', 'human_resources', (json: ContactPreview) => json.department],
		['industry', 'Real Estate', 'real_estate', (json: ContactPreview) => json.company.industry],
		['industry', ' E-Commerce ', 'e_commerce', (json: ContactPreview) => json.company.industry],
		[
			'techStack',
			'Ruby on Rails',
			'ruby on rails',
			(json: ContactPreview) => json.company.tech_stack,
		],
		['techStack', 'Node.JS', 'node.js', (json: ContactPreview) => json.company.tech_stack],
	])('%s "%s" finds %s', async (parameter, value, identifier, field) => {
		const result = await run(sandbox, {
			parameters: search({ filters: { [parameter]: `={{ ${JSON.stringify(value)} }}` }, limit: 5 }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(5);
		for (const { json } of result.items) {
			const found = field(json as unknown as ContactPreview);
			if (Array.isArray(found)) expect(found).toContain(identifier);
			else expect(found).toBe(identifier);
		}
		expect(hints(result)).toEqual([]);
	});

	it('offers the known values to pick from, and sends picked ones as they are', async () => {
		const { ContactData } = await import('../../../../../nodes/ContactData/ContactData.node');
		const filters = new ContactData().description.properties.find(
			(property) =>
				property.name === 'filters' && property.displayOptions?.show?.operation?.includes('search'),
		);
		const options = (filters?.options ?? []) as Array<{
			name: string;
			type: string;
			options?: Array<{ value: string }>;
		}>;
		for (const [name, sample] of [
			['department', 'customer_success'],
			['industry', 'real_estate'],
			['techStack', 'snowflake'],
		]) {
			const parameter = options.find((option) => option.name === name);
			expect(parameter?.type).toBe('multiOptions');
			expect(parameter?.options?.map((option) => option.value)).toContain(sample);
		}
		const picked = await run(sandbox, {
			parameters: search({ filters: { department: ['customer_success', 'legal'] }, limit: 3 }),
		});
		expect(
			picked.items
				.map((item) => item.json.department)
				.every((value) => ['customer_success', 'legal'].includes(String(value))),
		).toBe(true);
	});

	it('seniority and funding stage are taken as people write them too ("C-Suite", "Series A")', async () => {
		const result = await run(sandbox, {
			parameters: search({
				filters: { seniority: '={{ "C-Suite" }}', fundingStage: '={{ ["Series A"] }}' },
				limit: 3,
			}),
		});
		expect(result.error).toBeUndefined();
		for (const { json } of result.items) {
			expect(json.seniority).toBe('c_suite');
			expect((json.company as { funding_stage: string }).funding_stage).toBe('series_a');
		}
	});

	it('a search that finds nothing says which text filters may be at fault and how values are written', async () => {
		const result = await run(sandbox, {
			parameters: search({
				filters: { industry: '={{ "SaaS" }}', department: 'engineering' },
				limit: 5,
			}),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
		const [notice] = hints(result);
		expect(notice).toMatch(/No contacts matched/);
		expect(notice).toMatch(
			/Industries \["saas"\] is not a value the service lists; it writes them in lower case with underscores, e\.g\. software/,
		);
		expect(notice).toMatch(/Departments \["engineering"\] are matched exactly/);
	});

	it('a saved list created from filters that match nobody says the same', async () => {
		const result = await run(sandbox, {
			parameters: {
				resource: 'savedList',
				operation: 'create',
				name: 'Nobody',
				createFrom: 'filters',
				filters: { techStack: '={{ "Cobol" }}' },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ contact_count: 0 });
		expect(hints(result)).toEqual([
			expect.stringMatching(
				/^The new list has no contacts\. .*Tech Stack \["cobol"\] is not a value the service lists/,
			),
		]);
	});

	it('no notice when the filters hold no text filter', async () => {
		const result = await run(sandbox, {
			parameters: search({
				filters: { companySizeMin: 999_999_999, companySizeMax: 999_999_999 },
				limit: 5,
			}),
		});
		expect(result.items).toEqual([]);
		expect(hints(result)).toEqual([]);
	});
});

it('continueOnFail: a bad item becomes an error item paired with it; the others run', async () => {
	const result = await run(sandbox, {
		parameters: search({ filters: { country: '={{ $json.country }}' }, limit: 2 }),
		inputItems: [
			{ json: { country: 'DE' } },
			{ json: { country: 'Germany' } },
			{ json: { country: 'FR' } },
		],
		continueOnFail: true,
	});
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.pairedItem)).toEqual([
		{ item: 0 },
		{ item: 0 },
		{ item: 1 },
		{ item: 2 },
		{ item: 2 },
	]);
	expect(result.items[2].json.error).toMatch(/Countries/);
	expect(result.items[3].json.location).toMatchObject({ country: 'FR' });
});

it('pages with the cursor up to the limit', async () => {
	const result = await run(sandbox, { parameters: search({ limit: 230 }) });
	expect(result.items).toHaveLength(230);
	expect(new Set(result.items.map((item) => item.json.id)).size).toBe(230);
	expect((await keyStats(sandbox)).requests['POST /v1/search']).toBe(3);
});

it('Return All stops at the 10,000 paging cap and says so, pointing to saved lists and export', async () => {
	const result = await run(sandbox, { parameters: search({ returnAll: true }) });
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(10_000);
	expect(new Set(result.items.map((item) => item.json.id)).size).toBe(10_000);
	const notices = hints(result);
	expect(notices).toHaveLength(1);
	expect(notices[0]).toMatch(/about 20,000 contacts.*first 10,000.*Saved List → Create.*Export/);
	const stats = await keyStats(sandbox);
	expect(stats.requests['POST /v1/search']).toBe(100);
	expect(stats.http_429).toBe(0);
});

it('paces 150 paged searches under the time-scaled rate limit: no 429, no failed item', async () => {
	// 150 items × 2 pages = 300 searches against a limit of 100 per (scaled) minute.
	const inputItems = Array.from({ length: 150 }, (_, index) => ({
		json: { level: ['vp', 'director', 'manager', 'senior', 'entry'][index % 5] },
	}));
	const result = await run(sandbox, {
		parameters: search({ filters: { seniority: '={{ $json.level }}' }, limit: 101 }),
		inputItems,
	});
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(150 * 101);
	expect(result.items.filter((item) => item.json.error !== undefined)).toHaveLength(0);
	const stats = await keyStats(sandbox);
	expect(stats.requests['POST /v1/search']).toBe(300);
	expect(stats.http_429).toBe(0);
});

it('shares the pacing across executions: two runs at once stay under the limit together', async () => {
	const inputItems = Array.from({ length: 90 }, () => ({ json: {} }));
	const parameters = search({ filters: { seniority: ['manager'] }, limit: 1 });
	const [first, second] = await Promise.all([
		run(sandbox, { parameters, inputItems }),
		run(sandbox, { parameters, inputItems }),
	]);
	expect(first.items).toHaveLength(90);
	expect(second.items).toHaveLength(90);
	const stats = await keyStats(sandbox);
	expect(stats.requests['POST /v1/search']).toBe(180);
	expect(stats.http_429).toBe(0);
});
