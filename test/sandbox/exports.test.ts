/** POST /v1/lists/:id/export and signed downloads: CSV and JSON, fields, levels, URLs, streaming. */
import { request } from 'undici';

import {
	LIMITS,
	exportUrlResponseSchema,
	type ApiErrorBody,
	type ExportUrlResponse,
	type SavedList,
	type SearchResponse,
	type UnlockedContact,
} from '../../nodes/ContactData/shared/client/contract';
import {
	expectError,
	firstContactIds,
	parseCsv,
	useSandbox,
	type Reply,
	type UnlockAnswer,
} from './client';

/** The body of a JSON export: each member as the account holds it, cut to the fields asked for. */
interface JsonExport {
	contacts: Array<Partial<UnlockedContact>>;
}

const PREVIEW_FIELDS = [
	'id',
	'first_name',
	'last_name',
	'title',
	'seniority',
	'department',
	'company.name',
	'company.domain',
	'company.industry',
	'company.size',
	'company.funding_stage',
	'company.tech_stack',
	'location.country',
	'location.region',
	'location.city',
	'has_email',
	'has_phone',
	'unlocked',
];
const BASIC_FIELDS = [
	...PREVIEW_FIELDS,
	'level',
	'email',
	'email_status',
	'linkedin_url',
	'unlocked_at',
];
const PREMIUM_FIELDS = [...BASIC_FIELDS, 'phone', 'mobile_phone', 'work_history'];

// 150,000 contacts: a list of every contact passes the 100,000 bulk threshold.
const env = useSandbox({ contacts: 150_000, rateLimits: false });
const { api } = env;
let ids: string[];

beforeAll(async () => {
	ids = await firstContactIds(api, 6);
});

/** A list of six contacts: one held at premium, one at basic, four not unlocked. */
async function smallList(name = 'Picked') {
	const list = (await api<SavedList>('POST', '/v1/lists', { name, contact_ids: ids })).body;
	const premium = (
		await api<UnlockAnswer>('POST', '/v1/unlock', { ids: [ids[0]], level: 'premium' })
	).body.contacts[0];
	const basic = (await api<UnlockAnswer>('POST', '/v1/unlock', { ids: [ids[1]] })).body.contacts[0];
	return { list, premium, basic };
}

/** Fetches a signed export URL without a key; `T` names the body the test expects. */
async function download<T = unknown>(url: string): Promise<Reply<T>> {
	const response = await request(url);
	const text = await response.body.text();
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		body = undefined;
	}
	return { status: response.statusCode, headers: response.headers, text, body: body as T };
}

describe('inline exports', () => {
	it('writes RFC 4180 CSV: header of field paths, CRLF, quoting, ";"-joined arrays, JSON for objects, empty nulls', async () => {
		const { list, premium, basic } = await smallList();
		const reply = await api('POST', `/v1/lists/${list.id}/export`, {});
		expect(reply.status).toBe(200);
		expect(reply.headers['content-type']).toMatch(/^text\/csv/);
		expect(reply.headers['content-disposition']).toBe('attachment; filename="Picked.csv"');
		expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
		expect(reply.text.endsWith('\r\n')).toBe(true);
		expect(reply.text.replace(/\r\n/g, '').includes('\n')).toBe(false);
		const [header, ...rows] = parseCsv(reply.text);
		// A premium member makes every premium field a column.
		expect(header).toEqual(PREMIUM_FIELDS);
		expect(rows).toHaveLength(6);
		const column = (name: string) => header.indexOf(name);
		const rowOf = (id: string) => rows.find((row) => row[0] === id)!;

		const p = rowOf(premium.id);
		expect(p[column('email')]).toBe(premium.email ?? '');
		expect(p[column('last_name')]).toBe(premium.last_name);
		expect(p[column('company.tech_stack')]).toBe(premium.company.tech_stack.join(';'));
		expect(JSON.parse(p[column('work_history')])).toEqual(premium.work_history);
		expect(p[column('phone')]).toBe(premium.phone ?? '');
		expect(p[column('unlocked')]).toBe('true');
		expect(p[column('company.size')]).toBe(String(premium.company.size));

		const b = rowOf(basic.id);
		expect(b[column('level')]).toBe('basic');
		expect(b[column('email')]).toBe(basic.email ?? '');
		expect(b[column('work_history')]).toBe('');

		// Members not unlocked are exported at preview level.
		const preview = rowOf(ids[3]);
		expect(preview[column('email')]).toBe('');
		expect(preview[column('unlocked')]).toBe('false');
		expect(preview[column('last_name')]).toMatch(/^.\.$/);
		expect(preview[column('level')]).toBe('');
	});

	it('uses preview columns when no member is unlocked, and quotes cells that need it', async () => {
		const list = (
			await api<SavedList>('POST', '/v1/lists', {
				name: 'He said "hi", twice',
				contact_ids: ids.slice(2),
			})
		).body;
		const reply = await api('POST', `/v1/lists/${list.id}/export`, { format: 'csv' });
		const [header, ...rows] = parseCsv(reply.text);
		expect(header).toEqual(PREVIEW_FIELDS);
		expect(rows).toHaveLength(4);
		expect(reply.headers['content-disposition']).toMatch(
			/^attachment; filename="He said _hi_, twice\.csv"/,
		);
		// Work history as JSON text contains quotes and commas: it must round-trip through quoting.
		const premium = (
			await api<UnlockAnswer>('POST', '/v1/unlock', { ids: [ids[2]], level: 'premium' })
		).body.contacts[0];
		const withHistory = await api('POST', `/v1/lists/${list.id}/export`, {
			fields: ['id', 'work_history'],
		});
		const line = withHistory.text.split('\r\n')[1];
		expect(line.startsWith(`${premium.id},"[{""title"":`)).toBe(true);
		expect(JSON.parse(parseCsv(withHistory.text)[1][1])).toEqual(premium.work_history);
	});

	it('writes JSON {"contacts": [...]} with each member as the account holds it', async () => {
		const { list, premium, basic } = await smallList('People');
		const reply = await api<JsonExport>('POST', `/v1/lists/${list.id}/export`, { format: 'json' });
		expect(reply.status).toBe(200);
		expect(reply.headers['content-type']).toMatch(/^application\/json/);
		expect(reply.headers['content-disposition']).toBe('attachment; filename="People.json"');
		const contacts = reply.body.contacts;
		expect(contacts).toHaveLength(6);
		expect(contacts.find((c) => c.id === premium.id)).toEqual(premium);
		expect(contacts.find((c) => c.id === basic.id)).toEqual(basic);
		const preview = contacts.find((c) => c.id === ids[4]);
		expect(preview?.unlocked).toBe(false);
		expect(preview).not.toHaveProperty('email');
	});

	it('selects fields by dotted path, in CSV and JSON', async () => {
		const { list, basic } = await smallList();
		const fields = ['email', 'company.name', 'id', 'location'];
		const csv = await api('POST', `/v1/lists/${list.id}/export`, { fields });
		const [header, ...rows] = parseCsv(csv.text);
		expect(header).toEqual(fields);
		const b = rows.find((row) => row[2] === basic.id)!;
		expect(b).toEqual([
			basic.email ?? '',
			basic.company.name,
			basic.id,
			JSON.stringify(basic.location),
		]);
		expect(rows.find((row) => row[2] === ids[5])![0]).toBe('');

		const json = await api<JsonExport>('POST', `/v1/lists/${list.id}/export`, {
			format: 'json',
			fields: ['id', 'email', 'company.domain'],
		});
		const record = json.body.contacts.find((c) => c.id === basic.id);
		expect(record).toEqual({
			id: basic.id,
			email: basic.email,
			company: { domain: basic.company.domain },
		});
		expect(json.body.contacts.find((c) => c.id === ids[5])?.email).toBeNull();
	});

	it('exports a saved search with members added and removed by id, in data set order', async () => {
		const filters = { seniority: ['vp'], country: ['US'] };
		let matches: string[] = [];
		let cursor: string | null = null;
		do {
			const page: SearchResponse = (
				await api<SearchResponse>('POST', '/v1/search', { filters, limit: 100, cursor })
			).body;
			matches = matches.concat(page.results.map((r) => r.id));
			cursor = page.next_cursor;
		} while (cursor);
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'VPs', filters })).body;
		await api('DELETE', `/v1/lists/${list.id}/contacts`, { ids: [matches[1]] });
		await api('POST', `/v1/lists/${list.id}/contacts`, { ids: [ids[0]] });
		const reply = await api<JsonExport>('POST', `/v1/lists/${list.id}/export`, {
			format: 'json',
			fields: ['id'],
		});
		const exported = reply.body.contacts.map((c) => c.id);
		const expected = [ids[0], ...matches.filter((id) => id !== matches[1] && id !== ids[0])];
		expect(exported).toEqual(expected);
		expect((await api<SavedList>('GET', `/v1/lists/${list.id}`)).body.contact_count).toBe(
			expected.length,
		);
	});

	it('exports only the members the account holds with unlocked_only, counting them', async () => {
		const { list, premium, basic } = await smallList();
		const csv = await api('POST', `/v1/lists/${list.id}/export`, { unlocked_only: true });
		expect(csv.status).toBe(200);
		const rows = parseCsv(csv.text);
		expect(rows[0]).toEqual(PREMIUM_FIELDS);
		expect(rows.slice(1).map((row) => row[0])).toEqual([premium.id, basic.id]);
		const json = await api('POST', `/v1/lists/${list.id}/export`, {
			format: 'json',
			unlocked_only: true,
			fields: ['id', 'unlocked'],
		});
		expect(json.body).toEqual({
			contacts: [
				{ id: premium.id, unlocked: true },
				{ id: basic.id, unlocked: true },
			],
		});
		// false is every member, as when absent; the signed URL keeps the choice and counts what it exports.
		const all = await api<JsonExport>('POST', `/v1/lists/${list.id}/export`, {
			format: 'json',
			unlocked_only: false,
		});
		expect(all.body.contacts).toHaveLength(6);
		const url = await api<ExportUrlResponse>('POST', `/v1/lists/${list.id}/export`, {
			format: 'json',
			delivery: 'url',
			unlocked_only: true,
		});
		expect(url.body.contact_count).toBe(2);
		expect((await download(url.body.url)).body).toEqual(
			(await api('POST', `/v1/lists/${list.id}/export`, { format: 'json', unlocked_only: true }))
				.body,
		);
		const none = (
			await api<SavedList>('POST', '/v1/lists', { name: 'None held', contact_ids: ids.slice(2) })
		).body;
		expect(
			parseCsv((await api('POST', `/v1/lists/${none.id}/export`, { unlocked_only: true })).text),
		).toEqual([PREVIEW_FIELDS]);
		const refused = await api('POST', `/v1/lists/${list.id}/export`, { unlocked_only: 'yes' });
		expect(expectError(refused, 400, 'invalid_request').details).toEqual({
			field: 'unlocked_only',
		});
	});

	it('validates the export request (400 naming the field)', async () => {
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'L', contact_ids: ids })).body;
		const cases: Array<[unknown, string]> = [
			[{ format: 'xlsx' }, 'format'],
			[{ delivery: 'email' }, 'delivery'],
			[{ fields: [] }, 'fields'],
			[{ fields: ['email', 'company.ceo'] }, 'fields'],
			[{ fields: 'email' }, 'fields'],
		];
		for (const [body, field] of cases) {
			const reply = await api('POST', `/v1/lists/${list.id}/export`, body);
			expect({ body, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				body,
				details: { field },
			});
		}
	});
});

describe('signed-URL exports', () => {
	it('answers 202 with a signed URL on request; a plain GET without a key streams the file', async () => {
		const { list } = await smallList();
		const reply = await api('POST', `/v1/lists/${list.id}/export`, {
			delivery: 'url',
			format: 'json',
		});
		expect(reply.status).toBe(202);
		const body = exportUrlResponseSchema.parse(reply.body);
		expect(body).toMatchObject({ format: 'json', contact_count: 6 });
		expect(body.url.startsWith(`${env.sandbox.url}/v1/exports/`)).toBe(true);
		expect(body.url).toMatch(/\?expires=\d+&signature=[0-9a-f]{64}$/);
		const hour = Date.parse(body.expires_at) - Date.now();
		expect(hour).toBeGreaterThan(59 * 60 * 1000);
		expect(hour).toBeLessThanOrEqual(60 * 60 * 1000);
		const file = await download(body.url);
		expect(file.status).toBe(200);
		expect(file.headers['transfer-encoding']).toBe('chunked');
		expect(file.headers['x-ratelimit-limit']).toBeUndefined();
		const inline = await api('POST', `/v1/lists/${list.id}/export`, { format: 'json' });
		expect(file.body).toEqual(inline.body);
	});

	it('counts the members exported against the 100,000 threshold: unlocked_only of a large list is inline', async () => {
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'Everyone', filters: {} }))
			.body;
		await api('POST', '/v1/unlock', { ids: ids.slice(0, 3) });
		const reply = await api('POST', `/v1/lists/${list.id}/export`, {
			format: 'json',
			fields: ['id'],
			unlocked_only: true,
		});
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({ contacts: ids.slice(0, 3).map((id) => ({ id })) });
	});

	it('exports lists of 100,000 or more only through a URL, streaming every member', async () => {
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'Everyone', filters: {} }))
			.body;
		expect(list.contact_count).toBeGreaterThanOrEqual(LIMITS.bulkExportThreshold);
		const reply = await api<ExportUrlResponse>('POST', `/v1/lists/${list.id}/export`, {
			format: 'csv',
			delivery: 'inline',
		});
		expect(reply.status).toBe(202);
		expect(reply.body.contact_count).toBe(150_000);
		const file = await download(reply.body.url);
		expect(file.status).toBe(200);
		expect(file.headers['transfer-encoding']).toBe('chunked');
		expect(file.headers['content-disposition']).toBe('attachment; filename="Everyone.csv"');
		const lines = file.text.split('\r\n');
		expect(lines.pop()).toBe('');
		expect(lines).toHaveLength(150_001);
		expect(lines[0]).toBe(PREVIEW_FIELDS.join(','));
		expect(lines[1].startsWith(`${ids[0]},`)).toBe(true);
		expect(new Set(lines.slice(1).map((line) => line.slice(0, line.indexOf(',')))).size).toBe(
			150_000,
		);
	});

	it('refuses a tampered URL (401 bad_signature) and an expired one (401 expired)', async () => {
		const { list } = await smallList();
		const { url } = (
			await api<ExportUrlResponse>('POST', `/v1/lists/${list.id}/export`, { delivery: 'url' })
		).body;
		const parsed = new URL(url);
		const signature = parsed.searchParams.get('signature')!;
		const expires = Number(parsed.searchParams.get('expires'));

		const tampered = [
			url.replace(
				`signature=${signature}`,
				`signature=${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
			),
			url.replace(`expires=${expires}`, `expires=${expires + 3600}`),
			url.replace(/&signature=.*/, ''),
			url.replace(parsed.pathname, `${parsed.pathname.slice(0, -1)}x`),
		];
		for (const bad of tampered) {
			const reply = await download(bad);
			expect({ bad, status: reply.status, body: reply.body }).toEqual({
				bad,
				status: 401,
				body: {
					error: {
						code: 'unauthorized',
						message: expect.any(String),
						details: { reason: 'bad_signature' },
					},
				},
			});
		}
		await env.sandbox.admin.setSettings({ clock_offset_s: 3_601 });
		const expired = await download<ApiErrorBody>(url);
		expect(expired.status).toBe(401);
		expect(expired.body.error).toMatchObject({
			code: 'unauthorized',
			details: { reason: 'expired' },
		});
		await env.sandbox.admin.setSettings({ clock_offset_s: 0 });
		expect((await download(url)).status).toBe(200);
	});

	it('answers 404 for the URL of a list deleted since', async () => {
		const { list } = await smallList();
		const { url } = (
			await api<ExportUrlResponse>('POST', `/v1/lists/${list.id}/export`, { delivery: 'url' })
		).body;
		await api('DELETE', `/v1/lists/${list.id}`);
		const reply = await download<ApiErrorBody>(url);
		expect(reply.status).toBe(404);
		expect(reply.body.error.code).toBe('not_found');
	});
});
