/**
 * Saved List → Export: inline files and items for small lists; for a list above 100,000 contacts
 * the signed URL streamed into n8n's binary data, fetched without the Authorization header.
 */
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';

import { PATHS, type SavedList } from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import { api, contacts, hints, keyStats, run, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
let small: SavedList;
let ids: string[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 150_000 }); // a list above 100,000 exists
	ids = (await contacts(sandbox, 40)).map((contact) => contact.id);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => {
	await sandbox.admin.reset();
	small = (
		await api<SavedList>(sandbox, 'POST', PATHS.lists, { name: 'Q3 "Targets"', contact_ids: ids })
	).body;
	// Unlock a few, so the export shows them with their email.
	await api(sandbox, 'POST', PATHS.unlock, { ids: ids.slice(0, 10) });
});

const exportList = (parameters: Record<string, unknown>) => ({
	resource: 'savedList',
	operation: 'export',
	...parameters,
});
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

function fileText(item: INodeExecutionData, field = 'data'): string {
	const binary = item.binary?.[field] as IBinaryData;
	return Buffer.from(binary.data, 'base64').toString('utf8');
}

it('a small list as a CSV file: header of the chosen fields, one row per member, named after the list', async () => {
	const result = await run(sandbox, {
		parameters: exportList({
			listId: byId(small.id),
			format: 'csv',
			fields: 'id, email, company.name',
		}),
	});
	expect(result.error).toBeUndefined();
	const [item] = result.items;
	expect(item.json).toMatchObject({
		list_id: small.id,
		format: 'csv',
		file_name: 'Q3 "Targets".csv',
	});
	expect(item.binary?.data).toMatchObject({ mimeType: 'text/csv', fileName: 'Q3 "Targets".csv' });
	const lines = fileText(item)
		.split('\r\n')
		.filter((line) => line !== '');
	expect(lines[0]).toBe('id,email,company.name');
	expect(lines).toHaveLength(41);
	expect(lines.filter((line) => line.includes('@'))).toHaveLength(10);
	expect(item.pairedItem).toEqual({ item: 0 });
});

it('a small list as JSON items, or as a JSON file in a named binary field', async () => {
	const items = await run(sandbox, {
		parameters: exportList({ listId: byId(small.id), outputAs: 'items' }),
	});
	expect(items.items).toHaveLength(40);
	expect(new Set(items.items.map((item) => item.json.id))).toEqual(new Set(ids));

	const file = await run(sandbox, {
		parameters: exportList({
			listId: byId(small.id),
			format: 'json',
			binaryPropertyName: 'export',
		}),
	});
	expect(file.items[0].binary?.export.mimeType).toBe('application/json');
	expect(
		(JSON.parse(fileText(file.items[0], 'export')) as { contacts: unknown[] }).contacts,
	).toHaveLength(40);
});

it('a list above 100,000 contacts: streamed from the signed URL, sent without the API key', async () => {
	const big = (
		await api<SavedList>(sandbox, 'POST', PATHS.lists, { name: 'Everyone', filters: {} })
	).body;
	expect(big.contact_count).toBe(150_000);
	const before = await sandbox.admin.stats();

	const result = await run(sandbox, {
		parameters: exportList({
			listId: byId(big.id),
			format: 'csv',
			fields: 'id,first_name,company.domain',
		}),
	});
	expect(result.error).toBeUndefined();
	const [item] = result.items;
	expect(item.json).toMatchObject({
		list_id: big.id,
		contact_count: 150_000,
		file_name: 'Everyone.csv',
	});
	const text = fileText(item);
	const lines = text.split('\r\n');
	expect(lines[0]).toBe('id,first_name,company.domain');
	expect(lines.filter((line) => line !== '')).toHaveLength(150_001);
	expect(new Set(lines.slice(1, 1_001).map((line) => line.split(',')[0])).size).toBe(1_000);

	// The download reached the sandbox (requests_total) but was counted under no key: it carried none.
	const after = await sandbox.admin.stats();
	const growth = after.keys.sk_sandbox_growth.requests;
	expect(growth['GET /v1/exports/:id']).toBeUndefined();
	expect(growth['POST /v1/lists/:id/export']).toBe(1);
	const byKeys = (stats: typeof after) =>
		Object.values(stats.keys).reduce(
			(sum, key) => sum + Object.values(key.requests).reduce((total, count) => total + count, 0),
			0,
		);
	expect(after.requests_total - before.requests_total - (byKeys(after) - byKeys(before))).toBe(1);

	// As items, a list this large is refused before the download, pointing to the file output.
	const asItems = await run(sandbox, {
		parameters: exportList({ listId: byId(big.id), outputAs: 'items' }),
	});
	expect(asItems.error?.name).toBe('NodeOperationError');
	expect(asItems.error?.message).toMatch(/has 150000 contacts, too many to output as items$/);
	expect(asItems.error?.description).toMatch(/Output As to File/);
	expect((await sandbox.admin.stats()).requests_total - after.requests_total).toBe(1);
});

it('errors: an unknown list is a 404 naming the item; continueOnFail turns it into an error item', async () => {
	const parameters = exportList({ listId: byId('={{ $json.list }}') });
	const inputItems = [{ json: { list: 'ls_unknown' } }, { json: { list: small.id } }];
	const failed = await run(sandbox, { parameters, inputItems });
	expect(failed.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
	expect(failed.error?.message).toMatch(/\[item 0\]/);
	const continued = await run(sandbox, { parameters, inputItems, continueOnFail: true });
	expect(
		continued.items.map((item) => [item.json.httpCode ?? item.json.file_name, item.pairedItem]),
	).toEqual([
		['404', { item: 0 }],
		['Q3 "Targets".csv', { item: 1 }],
	]);
	expect((await keyStats(sandbox)).requests['POST /v1/lists/:id/export']).toBe(3);
});

it('says how many exported members have no email because they are not unlocked, in the file item and a notice', async () => {
	for (const format of ['csv', 'json']) {
		const result = await run(sandbox, {
			parameters: exportList({ listId: byId(small.id), format }),
		});
		expect(result.error).toBeUndefined();
		expect({ format, json: result.items[0].json }).toMatchObject({
			format,
			json: { contact_count: 40, not_unlocked_count: 30 },
		});
		expect(hints(result)).toEqual([
			expect.stringMatching(
				/30 of the 40 exported contacts have no email because they are not unlocked.*Unlocked Contacts Only/,
			),
		]);
	}
	const items = await run(sandbox, {
		parameters: exportList({ listId: byId(small.id), outputAs: 'items' }),
	});
	expect(items.items).toHaveLength(40);
	expect(hints(items)).toEqual([
		expect.stringMatching(/^30 of the 40 exported contacts have no email/),
	]);
	// Fields without `unlocked` cannot tell: no count, no notice.
	const chosen = await run(sandbox, {
		parameters: exportList({ listId: byId(small.id), fields: 'id, email' }),
	});
	expect(chosen.items[0].json).not.toHaveProperty('not_unlocked_count');
	expect(hints(chosen)).toEqual([]);
	// One export call per run, as before: the count is read from the file itself.
	expect((await keyStats(sandbox)).requests['POST /v1/lists/:id/export']).toBe(4);
});

it('Unlocked Contacts Only exports only the unlocked members, with their email', async () => {
	const result = await run(sandbox, {
		parameters: exportList({ listId: byId(small.id), unlockedOnly: true }),
	});
	expect(result.error).toBeUndefined();
	expect(result.items[0].json).toMatchObject({ contact_count: 10, not_unlocked_count: 0 });
	const rows = fileText(result.items[0])
		.split('\r\n')
		.filter((line) => line !== '');
	expect(rows).toHaveLength(11);
	expect(rows.slice(1).every((row) => row.includes('@'))).toBe(true);
	expect(hints(result)).toEqual([]);
	const items = await run(sandbox, {
		parameters: exportList({ listId: byId(small.id), outputAs: 'items', unlockedOnly: true }),
	});
	expect(new Set(items.items.map((item) => item.json.id))).toEqual(new Set(ids.slice(0, 10)));
	// A value that is not a boolean (from an expression) is refused before sending, naming the parameter.
	const refused = await run(sandbox, {
		parameters: exportList({ listId: byId(small.id), unlockedOnly: '={{ "yes" }}' }),
	});
	expect(refused.error?.message).toMatch(/^Unlocked Contacts Only: /);
});
