/** POST /v1/search: every filter, keywords, paging with cursors, the 10,000-result cap, validation. */
import {
	LIMITS,
	contactPreviewSchema,
	searchResponseSchema,
	type ContactPreview,
	type SearchResponse,
} from '../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../harness/sandbox';
import { clientFor, expectError, useSandbox, type UnlockAnswer } from './client';

const CONTACTS = 20_000;
const env = useSandbox({ contacts: CONTACTS, rateLimits: false });
const { api } = env;

async function search(filters: Record<string, unknown>, limit = 100, cursor?: string) {
	const reply = await api('POST', '/v1/search', { filters, limit, ...(cursor ? { cursor } : {}) });
	expect(reply.status).toBe(200);
	return searchResponseSchema.parse(reply.body);
}

const words = (text: string | null | undefined) =>
	(text ?? '')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter(Boolean);

describe('POST /v1/search', () => {
	it('matches every contact with filters {} and answers previews only', async () => {
		const reply = await api<SearchResponse>('POST', '/v1/search', { filters: {} });
		expect(reply.status).toBe(200);
		expect(reply.body.total).toBe(CONTACTS);
		expect(reply.body.results).toHaveLength(LIMITS.searchLimitDefault);
		expect(typeof reply.body.next_cursor).toBe('string');
		expect(reply.body.truncated).toBe(false);
		for (const result of reply.body.results) {
			contactPreviewSchema.parse(result);
			expect(result.id).toMatch(/^ct_[0-9a-z]+$/);
			expect(result.last_name).toMatch(/^.\.$/);
			expect(result).not.toHaveProperty('email');
			expect(result.unlocked).toBe(false);
		}
		const noFilters = await api<SearchResponse>('POST', '/v1/search', {});
		expect(noFilters.body.total).toBe(CONTACTS);
	});

	it('applies each filter as the contract says', async () => {
		const checks: Array<[Record<string, unknown>, (r: ContactPreview) => boolean]> = [
			[{ title: ['ENGINEER'] }, (r) => r.title?.toLowerCase().includes('engineer') === true],
			[{ title: ['vp', 'head of'] }, (r) => /vp|head of/i.test(r.title ?? '')],
			[{ seniority: ['vp', 'c_suite'] }, (r) => ['vp', 'c_suite'].includes(r.seniority ?? '')],
			[{ industry: ['Software'] }, (r) => r.company.industry === 'software'],
			[
				{ department: ['SALES', 'marketing'] },
				(r) => ['sales', 'marketing'].includes(r.department ?? ''),
			],
			[
				{ tech_stack: ['Snowflake', 'react'] },
				(r) => r.company.tech_stack.some((t) => ['snowflake', 'react'].includes(t)),
			],
			[
				{ company_size: '50-200' },
				(r) => r.company.size !== null && r.company.size >= 50 && r.company.size <= 200,
			],
			[{ company_size: '1-1' }, (r) => r.company.size === 1],
			[
				{ funding_stage: ['series_a', 'series_b'] },
				(r) => ['series_a', 'series_b'].includes(r.company.funding_stage ?? ''),
			],
			[{ country: ['us', 'GB'] }, (r) => ['US', 'GB'].includes(r.location.country ?? '')],
		];
		for (const [filters, predicate] of checks) {
			const page = await search(filters);
			expect({ filters, some: page.total > 0, fewer: page.total < CONTACTS }).toEqual({
				filters,
				some: true,
				fewer: true,
			});
			expect(page.results.length).toBe(Math.min(100, page.total));
			const failing = page.results.filter((r) => !predicate(r));
			expect({ filters, failing }).toEqual({ filters, failing: [] });
		}
	});

	it('knows two of the service’s further filters: revenue_range and employee_count_min', async () => {
		// The sandbox puts a company's yearly revenue at $200,000 per employee (docs/sandbox.md).
		const bands: Array<[string, number, number]> = [
			['0-1m', 1, 4],
			['1m-10m', 5, 49],
			['10m-50m', 50, 249],
			['50m-100m', 250, 499],
			['100m-500m', 500, 2_499],
			['500m+', 2_500, Infinity],
		];
		let total = 0;
		for (const [band, min, max] of bands) {
			const page = await search({ revenue_range: [band] });
			const outside = page.results.filter(
				({ company }) => (company.size ?? 0) < min || (company.size ?? 0) > max,
			);
			expect({ band, some: page.total > 0, outside }).toEqual({ band, some: true, outside: [] });
			total += page.total;
		}
		// The bands split the data set: each contact is in exactly one.
		expect(total).toBe(CONTACTS);
		const two = await search({ revenue_range: ['10m-50m', '50m-100m'] });
		const sizes = await search({ company_size: '50-499' });
		expect(two.total).toBe(sizes.total);

		const atLeast = await search({ employee_count_min: 1_000 });
		expect(atLeast.total).toBeGreaterThan(0);
		expect(atLeast.total).toBe((await search({ company_size: '1000-1000000' })).total);
		expect(atLeast.results.filter(({ company }) => (company.size ?? 0) < 1_000)).toEqual([]);
		const both = await search({ employee_count_min: 1_000, revenue_range: ['100m-500m'] });
		expect(both.total).toBe((await search({ company_size: '1000-2499' })).total);
		// A saved search keeps them too.
		const list = await api<{ contact_count: number }>('POST', '/v1/lists', {
			name: 'Further filters',
			filters: { revenue_range: ['500m+'] },
		});
		expect(list.status).toBe(201);
		expect(list.body.contact_count).toBe((await search({ company_size: '2500-1000000' })).total);
	});

	it('combines filters with AND and counts exactly', async () => {
		const seniority = await search({ seniority: ['director'] });
		const country = await search({ country: ['US'] });
		const both = await search({ seniority: ['director'], country: ['US'] });
		expect(both.total).toBeGreaterThan(0);
		expect(both.total).toBeLessThan(Math.min(seniority.total, country.total));
		for (const r of both.results)
			expect([r.seniority, r.location.country]).toEqual(['director', 'US']);
		// Paging through the combination sees exactly `total` distinct contacts.
		const seen = new Set<string>();
		let cursor: string | undefined;
		for (;;) {
			const page = await search({ seniority: ['director'], country: ['US'] }, 100, cursor);
			for (const r of page.results) seen.add(r.id);
			if (!page.next_cursor) {
				expect(page.truncated).toBe(false);
				break;
			}
			cursor = page.next_cursor;
		}
		expect(seen.size).toBe(both.total);
	});

	it('matches titles by whole words: CTO is not Director, VP Engineering is VP of Engineering', async () => {
		const cto = await search({ title: ['CTO'] });
		expect(cto.total).toBeGreaterThan(0);
		expect(cto.results.filter((r) => !words(r.title).includes('cto')).map((r) => r.title)).toEqual(
			[],
		);
		expect(cto.results.some((r) => r.title === 'Co-Founder & CTO')).toBe(true);
		expect((await search({ title: ['cTo'] })).total).toBe(cto.total);
		const vpEngineering = await search({ title: ['VP Engineering'] });
		const titles = new Set(vpEngineering.results.map((r) => r.title));
		expect([titles.has('VP Engineering'), titles.has('VP of Engineering')]).toEqual([true, true]);
		for (const title of titles)
			expect(words(title)).toEqual(expect.arrayContaining(['vp', 'engineering']));
		const engineer = await search({ title: ['engineer'] });
		expect(
			engineer.results.filter((r) => !words(r.title).includes('engineer')).map((r) => r.title),
		).toEqual([]);
		// Part of a word matches nothing; a value's words may come in any order and with other punctuation.
		expect((await search({ title: ['irecto'] })).total).toBe(0);
		expect((await search({ title: ['cto co-founder'] })).total).toBe(
			(await search({ title: ['Co-Founder & CTO'] })).total,
		);
	});

	it('ignores empty arrays and empty keywords', async () => {
		const page = await search({ title: [], seniority: [], tech_stack: [], keywords: '' });
		expect(page.total).toBe(CONTACTS);
	});

	it('matches keywords when every word begins a word of the name, title, company name or city', async () => {
		for (const keywords of ['san fran', 'eng', 'ada', 'vp sales', 'Lab']) {
			const page = await search({ keywords });
			expect({ keywords, some: page.total > 0 }).toEqual({ keywords, some: true });
			// Unlock the page to see full last names, then check every word against the fields.
			const unlocked = await api<UnlockAnswer>('POST', '/v1/unlock', {
				ids: page.results.map((r) => r.id),
			});
			expect(unlocked.status).toBe(200);
			for (const record of unlocked.body.contacts) {
				const fieldWords = [
					...words(record.first_name),
					...words(record.last_name),
					...words(record.title),
					...words(record.company.name),
					...words(record.location.city),
				];
				for (const word of words(keywords)) {
					expect({
						keywords,
						id: record.id,
						matches: fieldWords.some((w) => w.startsWith(word)),
					}).toEqual({
						keywords,
						id: record.id,
						matches: true,
					});
				}
			}
		}
		const none = await search({ keywords: 'zzzqqq' });
		expect(none).toEqual({ results: [], total: 0, next_cursor: null, truncated: false });
	});

	it('pages through the first 10,000 results; the last reachable page says truncated', async () => {
		const seen = new Set<string>();
		let cursor: string | undefined;
		let pages = 0;
		let last;
		do {
			last = await search({}, 100, cursor);
			pages++;
			for (const r of last.results) seen.add(r.id);
			expect(last.total).toBe(CONTACTS);
			cursor = last.next_cursor ?? undefined;
		} while (cursor);
		expect(pages).toBe(LIMITS.searchPagingCap / 100);
		expect(seen.size).toBe(LIMITS.searchPagingCap);
		expect(last.next_cursor).toBeNull();
		expect(last.truncated).toBe(true);
	});

	it('stops at the cap mid-page when the limit does not divide it', async () => {
		let cursor: string | undefined;
		let count = 0;
		let last;
		do {
			last = await search({}, 99, cursor);
			count += last.results.length;
			cursor = last.next_cursor ?? undefined;
		} while (cursor);
		expect(count).toBe(LIMITS.searchPagingCap);
		expect(last.results.length).toBe(LIMITS.searchPagingCap % 99);
		expect(last.truncated).toBe(true);
	});

	it('refuses a cursor with other filters or a forged cursor (400 cursor)', async () => {
		const first = await search({ country: ['US'] }, 10);
		const other = await api('POST', '/v1/search', {
			filters: { country: ['GB'] },
			cursor: first.next_cursor,
		});
		expect(expectError(other, 400, 'invalid_request').details).toEqual({ field: 'cursor' });
		const forged = await api('POST', '/v1/search', { filters: {}, cursor: 'not-a-cursor' });
		expect(expectError(forged, 400, 'invalid_request').details).toEqual({ field: 'cursor' });
		// The same filters, written in another key order, keep the cursor valid.
		const a = await search({ country: ['US'], seniority: ['vp'] }, 10);
		const b = await api<SearchResponse>('POST', '/v1/search', {
			filters: { seniority: ['vp'], country: ['US'] },
			cursor: a.next_cursor,
			limit: 10,
		});
		expect(b.status).toBe(200);
		expect(b.body.results[0].id).not.toBe(a.results[0].id);
	});

	it('validates limit (1-100, whole numbers)', async () => {
		for (const limit of [0, 101, 2.5, '10', -1]) {
			const reply = await api('POST', '/v1/search', { filters: {}, limit });
			expect({ limit, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				limit,
				details: { field: 'limit' },
			});
		}
		expect((await search({}, 1)).results).toHaveLength(1);
		expect((await search({}, 100)).results).toHaveLength(100);
	});

	it('answers 400 naming the field for unknown or ill-typed filters', async () => {
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ revenue_band: ['1m-10m'] }, 'filters.revenue_band'],
			[{ revenue_range: ['10m-20m'] }, 'filters.revenue_range'],
			[{ revenue_range: '10m-50m' }, 'filters.revenue_range'],
			[{ employee_count_min: 10.5 }, 'filters.employee_count_min'],
			[{ employee_count_min: '100' }, 'filters.employee_count_min'],
			[{ employee_count_min: -1 }, 'filters.employee_count_min'],
			[{ company_size: '200-50' }, 'filters.company_size'],
			[{ company_size: 'big' }, 'filters.company_size'],
			[{ seniority: ['boss'] }, 'filters.seniority'],
			[{ funding_stage: ['series_z'] }, 'filters.funding_stage'],
			[{ title: 'cto' }, 'filters.title'],
			[{ title: ['&'] }, 'filters.title'],
			[{ country: ['USA'] }, 'filters.country'],
			[{ keywords: 42 }, 'filters.keywords'],
		];
		for (const [filters, field] of cases) {
			const reply = await api('POST', '/v1/search', { filters });
			expect({ filters, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				filters,
				details: { field },
			});
		}
		const manyWords = Array.from({ length: 33 }, (_, n) => `w${n}x`).join(' ');
		expect(
			expectError(
				await api('POST', '/v1/search', { filters: { keywords: manyWords } }),
				400,
				'invalid_request',
			).details,
		).toEqual({
			field: 'filters.keywords',
		});
		const notObject = await api('POST', '/v1/search', { filters: ['cto'] });
		expect(expectError(notObject, 400, 'invalid_request').details?.field).toBe('filters');
	});

	it('marks results the account holds as unlocked, still as previews', async () => {
		const page = await search({ seniority: ['founder'] }, 5);
		await api('POST', '/v1/unlock', { ids: [page.results[0].id] });
		const again = await search({ seniority: ['founder'] }, 5);
		expect(again.results[0]).toMatchObject({ id: page.results[0].id, unlocked: true });
		expect(again.results[0]).not.toHaveProperty('email');
		expect(again.results[0].last_name).toMatch(/^.\.$/);
		expect(again.results.slice(1).every((r) => r.unlocked === false)).toBe(true);
	});

	it('generates the same data set and ids for the same seed, and another for another seed', async () => {
		const first = await search({}, 5);
		const same = await startTestSandbox({ contacts: CONTACTS, rateLimits: false });
		const other = await startTestSandbox({ contacts: CONTACTS, rateLimits: false, seed: 7 });
		try {
			const samePage = (
				await clientFor(same.url)<SearchResponse>('POST', '/v1/search', { limit: 5 })
			).body;
			const otherPage = (
				await clientFor(other.url)<SearchResponse>('POST', '/v1/search', { limit: 5 })
			).body;
			expect(samePage.results).toEqual(first.results);
			expect(otherPage.results.map((r) => r.id)).not.toEqual(first.results.map((r) => r.id));
		} finally {
			await same.close();
			await other.close();
		}
	});
});
