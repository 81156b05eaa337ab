/** Saved lists: create, read, page, add and remove members, delete; their errors. */
import {
	savedListSchema,
	savedListsPageSchema,
	type ListContactsAdded,
	type ListContactsRemoved,
	type SavedList,
	type SavedListsPage,
	type SearchResponse,
} from '../../nodes/ContactData/shared/client/contract';
import { expectError, useSandbox } from './client';

const CONTACTS = 20_000;
const env = useSandbox({ contacts: CONTACTS, rateLimits: false });
const { api } = env;

async function searchIds(
	filters: Record<string, unknown>,
	limit = 100,
): Promise<{ ids: string[]; total: number }> {
	const body = (await api<SearchResponse>('POST', '/v1/search', { filters, limit })).body;
	return { ids: body.results.map((r) => r.id), total: body.total };
}

describe('saved lists', () => {
	it('creates a list from filters whose members are every match, uncapped', async () => {
		const reply = await api('POST', '/v1/lists', { name: 'Everyone', filters: {} });
		expect(reply.status).toBe(201);
		const list = savedListSchema.parse(reply.body);
		expect(list.id).toMatch(/^ls_/);
		expect(list.contact_count).toBe(CONTACTS);
		expect(list.filters).toEqual({});
		expect(Date.parse(list.created_at)).not.toBeNaN();
		expect(list.updated_at).toBe(list.created_at);

		const vps = await api<SavedList>('POST', '/v1/lists', {
			name: 'VPs in the US',
			filters: { seniority: ['vp'], country: ['US'] },
		});
		const { total } = await searchIds({ seniority: ['vp'], country: ['US'] });
		expect(vps.body.contact_count).toBe(total);
		expect(vps.body.filters).toEqual({ seniority: ['vp'], country: ['US'] });
		expect((await api<SavedList>('GET', `/v1/lists/${vps.body.id}`)).body).toEqual(vps.body);
	});

	it('creates a list from ids, with filters null, and counts real changes when adding and removing', async () => {
		const { ids } = await searchIds({}, 10);
		const created = await api<SavedList>('POST', '/v1/lists', {
			name: 'Picked',
			contact_ids: ids.slice(0, 4),
		});
		expect(created.body).toMatchObject({ filters: null, contact_count: 4 });
		const id = created.body.id;
		const added = await api<ListContactsAdded>('POST', `/v1/lists/${id}/contacts`, {
			ids: ids.slice(2, 7),
		});
		expect(added.status).toBe(200);
		expect(added.body).toEqual({ added: 3, contact_count: 7 });
		const removed = await api<ListContactsRemoved>('DELETE', `/v1/lists/${id}/contacts`, {
			ids: [ids[0], ids[9]],
		});
		expect(removed.body).toEqual({ removed: 1, contact_count: 6 });
		const again = await api('DELETE', `/v1/lists/${id}/contacts`, { ids: [ids[0]] });
		expect(again.body).toEqual({ removed: 0, contact_count: 6 });
		const got = (await api<SavedList>('GET', `/v1/lists/${id}`)).body;
		expect(got.contact_count).toBe(6);
		expect(Date.parse(got.updated_at)).toBeGreaterThanOrEqual(Date.parse(got.created_at));
	});

	it('excludes a filter-matched member that is removed, and takes it back when added', async () => {
		const filters = { seniority: ['c_suite'], country: ['GB'] };
		const { ids, total } = await searchIds(filters);
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'UK chiefs', filters })).body;
		expect(list.contact_count).toBe(total);
		const removed = await api<ListContactsRemoved>('DELETE', `/v1/lists/${list.id}/contacts`, {
			ids: ids.slice(0, 2),
		});
		expect(removed.body).toEqual({ removed: 2, contact_count: total - 2 });
		const readded = await api('POST', `/v1/lists/${list.id}/contacts`, { ids: [ids[0], ids[2]] });
		expect(readded.body).toEqual({ added: 1, contact_count: total - 1 });
		// A contact outside the filters can be added too.
		const outsider = (await searchIds({ country: ['US'] }, 1)).ids[0];
		expect((await api('POST', `/v1/lists/${list.id}/contacts`, { ids: [outsider] })).body).toEqual({
			added: 1,
			contact_count: total,
		});
	});

	it('answers 404 with details.ids for unknown contacts and changes nothing', async () => {
		const { ids } = await searchIds({}, 2);
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'L', contact_ids: [ids[0]] }))
			.body;
		const reply = await api('POST', `/v1/lists/${list.id}/contacts`, {
			ids: [ids[1], 'ct_zzzzzzz'],
		});
		expect(expectError(reply, 404, 'not_found').details).toEqual({ ids: ['ct_zzzzzzz'] });
		expect((await api<SavedList>('GET', `/v1/lists/${list.id}`)).body.contact_count).toBe(1);
		const atCreate = await api('POST', '/v1/lists', { name: 'L2', contact_ids: ['ct_nothere'] });
		expect(expectError(atCreate, 404, 'not_found').details).toEqual({ ids: ['ct_nothere'] });
		expect((await api<SavedListsPage>('GET', '/v1/lists')).body.lists).toHaveLength(1);
	});

	it('answers 413 past 1,000 ids and 400 for malformed bodies', async () => {
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'L' })).body;
		expect(list.contact_count).toBe(0);
		const many = Array.from({ length: 1_001 }, (_, n) => `ct_${String(n).padStart(7, '0')}`);
		expectError(
			await api('POST', `/v1/lists/${list.id}/contacts`, { ids: many }),
			413,
			'too_many_ids',
		);
		expectError(
			await api('DELETE', `/v1/lists/${list.id}/contacts`, { ids: many }),
			413,
			'too_many_ids',
		);
		expectError(
			await api('POST', '/v1/lists', { name: 'Big', contact_ids: many }),
			413,
			'too_many_ids',
		);
		const cases: Array<[string, string, unknown, string]> = [
			['POST', '/v1/lists', { filters: {} }, 'name'],
			['POST', '/v1/lists', { name: '' }, 'name'],
			['POST', '/v1/lists', { name: 'x'.repeat(201) }, 'name'],
			['POST', '/v1/lists', { name: 'n', filters: { seniority: ['boss'] } }, 'filters.seniority'],
			[
				'POST',
				'/v1/lists',
				{ name: 'n', filters: { unknown_filter: 1 } },
				'filters.unknown_filter',
			],
			['POST', '/v1/lists', { name: 'n', contact_ids: ['x1'] }, 'contact_ids'],
			['POST', `/v1/lists/${list.id}/contacts`, { ids: [] }, 'ids'],
			['DELETE', `/v1/lists/${list.id}/contacts`, {}, 'ids'],
		];
		for (const [method, path, body, field] of cases) {
			const reply = await api(method as 'POST', path, body);
			expect({ path, body, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				path,
				body,
				details: { field },
			});
		}
		expect((await api<SavedListsPage>('GET', '/v1/lists')).body.lists).toHaveLength(1);
		expect((await api('POST', '/v1/lists', { name: 'x'.repeat(200), filters: null })).status).toBe(
			201,
		);
	});

	it('pages GET /v1/lists with limit and cursor, oldest first', async () => {
		for (let n = 0; n < 7; n++) await api('POST', '/v1/lists', { name: `List ${n}` });
		const names: string[] = [];
		let cursor: string | null = null;
		let pages = 0;
		do {
			const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
			const page = savedListsPageSchema.parse((await api('GET', `/v1/lists${query}`)).body);
			names.push(...page.lists.map((l) => l.name));
			cursor = page.next_cursor;
			pages++;
		} while (cursor);
		expect(pages).toBe(3);
		expect(names).toEqual(Array.from({ length: 7 }, (_, n) => `List ${n}`));
		expect((await api<SavedListsPage>('GET', '/v1/lists')).body.lists).toHaveLength(7);
		for (const limit of ['0', '101', 'x', '2.5']) {
			expect(
				expectError(await api('GET', `/v1/lists?limit=${limit}`), 400, 'invalid_request').details,
			).toEqual({ field: 'limit' });
		}
		expect(
			expectError(await api('GET', '/v1/lists?cursor=%%%'), 400, 'invalid_request').details,
		).toEqual({ field: 'cursor' });
	});

	it('deletes a list with 204; the list is gone afterwards', async () => {
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'Temp' })).body;
		const deleted = await api('DELETE', `/v1/lists/${list.id}`);
		expect(deleted.status).toBe(204);
		expect(deleted.text).toBe('');
		expectError(await api('GET', `/v1/lists/${list.id}`), 404, 'not_found');
		expectError(await api('DELETE', `/v1/lists/${list.id}`), 404, 'not_found');
		expectError(
			await api('POST', `/v1/lists/${list.id}/contacts`, { ids: ['ct_0000000'] }),
			404,
			'not_found',
		);
		expectError(await api('POST', `/v1/lists/${list.id}/export`, {}), 404, 'not_found');
	});
});
