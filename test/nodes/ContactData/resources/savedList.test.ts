/** Saved List → Get Many, Get, Create, Add/Remove Contacts, Delete, and the list picker. */
import { ContactData } from '../../../../nodes/ContactData/ContactData.node';
import { PATHS, type SavedList } from '../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../harness/sandbox';
import { api, contacts, keyStats, loadOptionsContext, run, type TestSandbox } from '../setup';

let sandbox: TestSandbox;
let ids: string[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 20_000 });
	ids = (await contacts(sandbox, 2_600)).map((contact) => contact.id);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const savedList = (operation: string, parameters: Record<string, unknown> = {}) => ({
	resource: 'savedList',
	operation,
	...parameters,
});
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

async function makeList(name: string, body: Record<string, unknown>): Promise<SavedList> {
	const { status, body: list } = await api<SavedList>(sandbox, 'POST', PATHS.lists, {
		name,
		...body,
	});
	if (status !== 201) throw new Error(`create list: ${status}`);
	return list;
}

it('Create from search filters: one list per item, names and filters from expressions', async () => {
	const result = await run(sandbox, {
		parameters: savedList('create', {
			name: '={{ $json.name }}',
			createFrom: 'filters',
			filters: { seniority: '={{ $json.seniority }}' },
		}),
		inputItems: [
			{ json: { name: 'VPs', seniority: 'vp' } },
			{ json: { name: 'Founders', seniority: ['founder', 'owner'] } },
		],
	});
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.name, item.json.filters, item.pairedItem])).toEqual([
		['VPs', { seniority: ['vp'] }, { item: 0 }],
		['Founders', { seniority: ['founder', 'owner'] }, { item: 1 }],
	]);
	expect(result.items[0].json.contact_count).toBeGreaterThan(0);
});

it('Create from contact IDs: all items in one list, 1,000 ids at creation and the rest added in batches', async () => {
	// 1,300 items: single ids, then arrays of ids, with repeats; 2,500 unique ids.
	const inputItems = [
		...ids.slice(0, 1_200).map((id) => ({ json: { ids: id } })),
		...Array.from({ length: 100 }, (_, index) => ({
			json: { ids: ids.slice(1_000 + index * 15, 1_000 + index * 15 + 15) },
		})),
	];
	const result = await run(sandbox, {
		parameters: savedList('create', {
			name: 'Imported',
			createFrom: 'contactIds',
			contactIdField: 'ids',
		}),
		inputItems,
	});
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items[0].json).toMatchObject({
		name: 'Imported',
		contact_count: 2_500,
		filters: null,
	});
	expect(result.items[0].pairedItem).toEqual(inputItems.map((_, item) => ({ item })));
	const stats = await keyStats(sandbox);
	expect(stats.requests['POST /v1/lists']).toBe(1);
	expect(stats.requests['POST /v1/lists/:id/contacts']).toBe(2);
});

it('Add and Remove Contacts collect ids across all items, per list, 1,000 per call (never a 413)', async () => {
	const first = await makeList('First', { contact_ids: [] });
	const second = await makeList('Second', { contact_ids: [] });
	const inputItems = ids.slice(0, 2_600).map((id, index) => ({
		json: { id, list: index % 2 === 0 || index >= 2_300 ? first.id : second.id },
	}));
	const added = await run(sandbox, {
		parameters: savedList('addContacts', { listId: byId('={{ $json.list }}') }),
		inputItems: [...inputItems, ...inputItems.slice(0, 50)],
	});
	expect(added.error).toBeUndefined();
	expect(
		added.items.map((item) => [item.json.list_id, item.json.added, item.json.contact_count]),
	).toEqual([
		[first.id, 1_450, 1_450],
		[second.id, 1_150, 1_150],
	]);
	const firstPaired = added.items[0].pairedItem as Array<{ item: number }>;
	expect(firstPaired).toHaveLength(1_450 + 25);
	expect(firstPaired.slice(0, 3)).toEqual([{ item: 0 }, { item: 2 }, { item: 4 }]);
	expect((await keyStats(sandbox)).requests['POST /v1/lists/:id/contacts']).toBe(4);

	const removed = await run(sandbox, {
		parameters: savedList('removeContacts', { listId: byId(first.id) }),
		inputItems: inputItems.slice(0, 500),
	});
	expect(removed.items.map((item) => [item.json.removed, item.json.contact_count])).toEqual([
		[250, 1_200],
	]);
	expect((await keyStats(sandbox)).requests['DELETE /v1/lists/:id/contacts']).toBe(1);
});

it('an unknown contact id: 404 naming the ids; under continueOnFail an error item paired with the list’s items', async () => {
	const list = await makeList('Target', { contact_ids: [] });
	const parameters = savedList('addContacts', { listId: byId(list.id) });
	const inputItems = [{ json: { id: ids[0] } }, { json: { id: 'ct_doesnotexist' } }];
	const failed = await run(sandbox, { parameters, inputItems });
	expect(failed.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
	expect(failed.error?.description).toMatch(/ct_doesnotexist/);

	const continued = await run(sandbox, { parameters, inputItems, continueOnFail: true });
	expect(continued.items).toEqual([
		{
			json: expect.objectContaining({
				list_id: list.id,
				httpCode: '404',
				error: expect.any(String),
			}),
			pairedItem: [{ item: 0 }, { item: 1 }],
		},
	]);
});

it('Get Many pages with Return All or stops at Limit; Get and Delete take the list picker or an ID', async () => {
	const made = [];
	for (let index = 0; index < 105; index++)
		made.push(await makeList(`List ${index}`, { contact_ids: [ids[index]] }));
	const all = await run(sandbox, { parameters: savedList('getMany', { returnAll: true }) });
	expect(all.items).toHaveLength(105);
	expect((await keyStats(sandbox)).requests['GET /v1/lists']).toBe(2);
	const some = await run(sandbox, { parameters: savedList('getMany', { limit: 7 }) });
	expect(some.items).toHaveLength(7);

	const got = await run(sandbox, {
		parameters: savedList('get', { listId: { __rl: true, mode: 'list', value: made[3].id } }),
	});
	expect(got.items[0].json).toMatchObject({ id: made[3].id, name: 'List 3', contact_count: 1 });

	const deleted = await run(sandbox, {
		parameters: savedList('delete', { listId: byId('={{ $json.id }}') }),
		inputItems: [{ json: { id: made[0].id } }, { json: { id: made[1].id } }],
	});
	expect(deleted.items.map((item) => item.json)).toEqual([
		{ id: made[0].id, deleted: true },
		{ id: made[1].id, deleted: true },
	]);
	const gone = await run(sandbox, { parameters: savedList('get', { listId: byId(made[0].id) }) });
	expect(gone.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
	expect(gone.error?.message).toMatch(/^Saved List: .*ls_/);
	expect(gone.error?.message).not.toMatch(/\[item \d+\]/);
});

it('the list picker searches saved lists by name, a page at a time', async () => {
	for (let index = 0; index < 120; index++)
		await makeList(`${index % 2 ? 'Odd' : 'Even'} ${index}`, {});
	const context = loadOptionsContext(sandbox);
	const search = new ContactData().methods.listSearch.searchSavedLists;
	const firstPage = await search.call(context, 'odd');
	expect(firstPage.results.length).toBe(50);
	expect(
		firstPage.results.every((result) => /^Odd \d+ \(0 contacts\)$/.test(String(result.name))),
	).toBe(true);
	expect(firstPage.paginationToken).toEqual(expect.any(String));
	const secondPage = await search.call(context, 'odd', firstPage.paginationToken as string);
	expect(secondPage.results.length).toBe(10);
	expect(secondPage.paginationToken).toBeUndefined();
});
