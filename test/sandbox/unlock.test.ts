/** POST /v1/unlock and POST /v1/enrich: levels, charges, 402/413/400, idempotency. */
import {
	HEADERS,
	enrichResponseSchema,
	unlockResponseSchema,
	unlockedContactSchema,
	type Balance,
	type SearchResponse,
	type UnlockEntryError,
	type UnlockedContact,
} from '../../nodes/ContactData/shared/client/contract';
import { KEYS } from '../harness/sandbox';
import {
	expectError,
	firstContactIds,
	useSandbox,
	type EnrichAnswer,
	type UnlockAnswer,
} from './client';

const env = useSandbox({ contacts: 5_000, rateLimits: false });
const { api } = env;
let ids: string[];

beforeAll(async () => {
	ids = await firstContactIds(api, 100);
});

async function balance(key: string = KEYS.growth): Promise<number> {
	return (await api<Balance>('GET', '/v1/credits/balance', undefined, { key })).body.balance;
}

describe('POST /v1/unlock', () => {
	it('unlocks at basic by default: full record, 1 credit each, in request order', async () => {
		const reply = await api<UnlockAnswer>('POST', '/v1/unlock', { ids: [ids[2], ids[0], ids[1]] });
		expect(reply.status).toBe(200);
		const body = unlockResponseSchema.parse(reply.body);
		expect(body.contacts.map((c) => c.id)).toEqual([ids[2], ids[0], ids[1]]);
		expect(body.credits_charged).toBe(3);
		expect(body.credits_remaining).toBe(1_000_000 - 3);
		for (const contact of reply.body.contacts) {
			unlockedContactSchema.parse(contact);
			expect(contact).toMatchObject({ unlocked: true, level: 'basic' });
			expect(contact.last_name?.length).toBeGreaterThan(2);
			for (const field of ['email', 'email_status', 'linkedin_url'])
				expect(contact).toHaveProperty(field);
			for (const field of ['phone', 'mobile_phone', 'work_history'])
				expect(contact).not.toHaveProperty(field);
			expect(Date.parse(contact.unlocked_at)).not.toBeNaN();
		}
		expect(await balance()).toBe(1_000_000 - 3);
	});

	it('premium adds phones and work history and costs 2; nulls are present, never absent', async () => {
		const reply = await api<UnlockAnswer>('POST', '/v1/unlock', { ids, level: 'premium' });
		expect(reply.body.credits_charged).toBe(200);
		for (const contact of reply.body.contacts) {
			expect(contact.level).toBe('premium');
			for (const field of ['email', 'email_status', 'phone', 'mobile_phone', 'linkedin_url'])
				expect(contact).toHaveProperty(field);
			expect(Array.isArray(contact.work_history)).toBe(true);
			expect(contact.work_history?.[0]).toMatchObject({ company: contact.company.name, end: null });
		}
		const contacts = reply.body.contacts;
		// A few titles on file are out of date: the current job in the work history says otherwise.
		const outdated = contacts.filter((c) => c.work_history?.[0].title !== c.title).length;
		expect(outdated).toBeGreaterThan(0);
		expect(outdated).toBeLessThan(15);
		// The data set has gaps and doubtful emails, so refunds can be exercised.
		expect(contacts.some((c) => c.phone === null)).toBe(true);
		expect(contacts.some((c) => c.mobile_phone === null)).toBe(true);
		expect(contacts.some((c) => c.email_status === 'guessed')).toBe(true);
		for (const c of contacts.filter((c) => c.email !== null)) {
			expect(c.email?.endsWith(`@${c.company.domain}`)).toBe(true);
		}
		expect(contacts.some((c) => c.email_status === 'verified')).toBe(true);
		expect(contacts.every((c) => (c.email === null) === (c.email_status === null))).toBe(true);
		expect(
			contacts.every((c) => c.has_phone === (c.phone !== null || c.mobile_phone !== null)),
		).toBe(true);
	});

	it('re-unlocks free at the same or a lower level; basic to premium charges the difference', async () => {
		await api('POST', '/v1/unlock', { ids: [ids[0]], level: 'premium' });
		await api('POST', '/v1/unlock', { ids: [ids[1]] });
		const again = await api<UnlockAnswer>('POST', '/v1/unlock', {
			ids: [ids[0], ids[1]],
			level: 'basic',
		});
		expect(again.body.credits_charged).toBe(0);
		// A contact held at a higher level than asked comes back at that level.
		expect(again.body.contacts.map((c) => c.level)).toEqual(['premium', 'basic']);
		const upgrade = await api<UnlockAnswer>('POST', '/v1/unlock', {
			ids: [ids[0], ids[1]],
			level: 'premium',
		});
		expect(upgrade.body.credits_charged).toBe(1);
		expect(upgrade.body.contacts.map((c) => c.level)).toEqual(['premium', 'premium']);
		expect(await balance()).toBe(1_000_000 - 2 - 1 - 1);
	});

	it('answers not_found entries for unknown ids, charging only for the others', async () => {
		// The first id unlocks; the two unknown ones come back as error entries.
		const reply = await api<UnlockAnswer<[UnlockedContact, UnlockEntryError, UnlockEntryError]>>(
			'POST',
			'/v1/unlock',
			{
				ids: [ids[0], 'ct_zzzzzzz', 'ct_unknown'],
			},
		);
		expect(reply.status).toBe(200);
		expect(reply.body.credits_charged).toBe(1);
		expect(reply.body.contacts[1]).toEqual({
			id: 'ct_zzzzzzz',
			error: { code: 'not_found', message: expect.any(String) },
		});
		expect(reply.body.contacts[2].error.code).toBe('not_found');
	});

	it('refuses the whole call with 402 when the balance is short, charging nothing', async () => {
		await env.sandbox.admin.setBalance(KEYS.growth, 3);
		const reply = await api('POST', '/v1/unlock', { ids: ids.slice(0, 2), level: 'premium' });
		expect(expectError(reply, 402, 'insufficient_credits').details).toEqual({
			required: 4,
			balance: 3,
		});
		expect(await balance()).toBe(3);
		const search = await api<SearchResponse>('POST', '/v1/search', { filters: {}, limit: 2 });
		expect(search.body.results.every((r) => r.unlocked === false)).toBe(true);
		const empty = await api('POST', '/v1/unlock', { ids: [ids[0]] }, { key: KEYS.empty });
		expect(expectError(empty, 402, 'insufficient_credits').details).toEqual({
			required: 1,
			balance: 0,
		});
		// Contacts already held cost nothing, so the empty account may fetch them again.
		await env.sandbox.admin.setBalance(KEYS.empty, 1);
		expect((await api('POST', '/v1/unlock', { ids: [ids[0]] }, { key: KEYS.empty })).status).toBe(
			200,
		);
		expect(
			(await api<UnlockAnswer>('POST', '/v1/unlock', { ids: [ids[0]] }, { key: KEYS.empty })).body
				.credits_charged,
		).toBe(0);
	});

	it('validates ids: 413 past 100, 400 on repeats, empties, non-ids and bad levels', async () => {
		const many = Array.from({ length: 101 }, (_, n) => `ct_${String(n).padStart(7, '0')}`);
		const tooMany = await api('POST', '/v1/unlock', { ids: many });
		expectError(tooMany, 413, 'too_many_ids');
		const cases: Array<[unknown, string]> = [
			[{ ids: [ids[0], ids[0]] }, 'ids'],
			[{ ids: [] }, 'ids'],
			[{ ids: ['12345'] }, 'ids'],
			[{ ids: 'ct_1' }, 'ids'],
			[{}, 'ids'],
			[{ ids: [ids[0]], level: 'gold' }, 'level'],
		];
		for (const [body, field] of cases) {
			const reply = await api('POST', '/v1/unlock', body);
			expect({ body, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				body,
				details: { field },
			});
		}
		expect(await balance()).toBe(1_000_000);
	});

	describe('Idempotency-Key', () => {
		it('replays the first answer for the same key and body, charging nothing more', async () => {
			const headers = { 'Idempotency-Key': 'run-1-item-1' };
			const first = await api<UnlockAnswer>(
				'POST',
				'/v1/unlock',
				{ ids: ids.slice(0, 3), level: 'premium' },
				{ headers },
			);
			expect(first.body.credits_charged).toBe(6);
			// The same body with keys in another order is the same parsed JSON.
			const replay = await api(
				'POST',
				'/v1/unlock',
				{ level: 'premium', ids: ids.slice(0, 3) },
				{ headers },
			);
			expect(replay.status).toBe(200);
			expect(replay.body).toEqual(first.body);
			// A replay says so; a first answer does not.
			expect(replay.headers[HEADERS.idempotentReplayed]).toBe('true');
			expect(first.headers[HEADERS.idempotentReplayed]).toBeUndefined();
			expect(await balance()).toBe(1_000_000 - 6);
			const stats = await env.sandbox.admin.stats();
			expect(stats.keys[KEYS.growth].credits_charged).toBe(6);
			// Counted, so a client's retries can be shown to carry the same key.
			expect(stats.keys[KEYS.growth].idempotent_replays).toBe(1);
		});

		it('answers 409 conflict for the same key with another body', async () => {
			const headers = { 'Idempotency-Key': 'k-conflict' };
			await api('POST', '/v1/unlock', { ids: [ids[0]] }, { headers });
			const other = await api('POST', '/v1/unlock', { ids: [ids[1]] }, { headers });
			expectError(other, 409, 'conflict');
			expect(await balance()).toBe(1_000_000 - 1);
			expect((await env.sandbox.admin.stats()).keys[KEYS.growth].idempotent_replays).toBe(0);
		});

		it('remembers only 2xx answers', async () => {
			await env.sandbox.admin.setBalance(KEYS.growth, 0);
			const headers = { 'Idempotency-Key': 'k-after-402' };
			expectError(
				await api('POST', '/v1/unlock', { ids: [ids[0]] }, { headers }),
				402,
				'insufficient_credits',
			);
			await env.sandbox.admin.setBalance(KEYS.growth, 5);
			const retried = await api<UnlockAnswer>('POST', '/v1/unlock', { ids: [ids[0]] }, { headers });
			expect(retried.status).toBe(200);
			expect(retried.body.credits_charged).toBe(1);
		});

		it('expires after 24 hours and keeps keys per account', async () => {
			const headers = { 'Idempotency-Key': 'k-window' };
			await api('POST', '/v1/unlock', { ids: [ids[0]] }, { headers });
			const otherAccount = await api(
				'POST',
				'/v1/unlock',
				{ ids: [ids[1]] },
				{ headers, key: KEYS.empty },
			);
			expectError(otherAccount, 402, 'insufficient_credits');
			await env.sandbox.admin.setSettings({ clock_offset_s: 24 * 3600 + 1 });
			const later = await api<UnlockAnswer>('POST', '/v1/unlock', { ids: [ids[1]] }, { headers });
			expect(later.status).toBe(200);
			expect(later.body.credits_charged).toBe(1);
		});

		it('refuses keys over 255 characters', async () => {
			const reply = await api(
				'POST',
				'/v1/unlock',
				{ ids: [ids[0]] },
				{ headers: { 'Idempotency-Key': 'k'.repeat(256) } },
			);
			expect(expectError(reply, 400, 'invalid_request').details).toEqual({
				field: 'Idempotency-Key',
			});
			const longest = await api(
				'POST',
				'/v1/unlock',
				{ ids: [ids[0]] },
				{ headers: { 'Idempotency-Key': 'k'.repeat(255) } },
			);
			expect(longest.status).toBe(200);
		});
	});
});

describe('POST /v1/enrich', () => {
	it('finds a contact by email or LinkedIn URL and charges as an unlock', async () => {
		const unlocked = (
			await api<UnlockAnswer>('POST', '/v1/unlock', { ids: ids.slice(0, 20) }, { key: KEYS.growth })
		).body.contacts;
		const withEmail = unlocked.find((c) => c.email !== null)!;
		const withLinkedin = unlocked.find((c) => c.linkedin_url !== null && c.id !== withEmail.id)!;
		await env.sandbox.admin.reset();

		const byEmail = await api('POST', '/v1/enrich', {
			email: withEmail.email?.toUpperCase(),
			first_name: 'ignored',
		});
		expect(byEmail.status).toBe(200);
		const body = enrichResponseSchema.parse(byEmail.body);
		expect(body.contact.id).toBe(withEmail.id);
		expect(body.contact.level).toBe('basic');
		expect(body.credits_charged).toBe(1);
		expect(body.credits_remaining).toBe(1_000_000 - 1);

		const byLinkedin = await api<EnrichAnswer>('POST', '/v1/enrich', {
			linkedin_url: withLinkedin.linkedin_url,
			level: 'premium',
		});
		expect(byLinkedin.body.contact).toMatchObject({ id: withLinkedin.id, level: 'premium' });
		expect(byLinkedin.body.credits_charged).toBe(2);

		// Already held: free. When both match different contacts, the email wins.
		const both = await api<EnrichAnswer>('POST', '/v1/enrich', {
			email: withEmail.email,
			linkedin_url: withLinkedin.linkedin_url,
		});
		expect(both.body.contact.id).toBe(withEmail.id);
		expect(both.body.credits_charged).toBe(0);

		const balanceBody = (await api<Balance>('GET', '/v1/credits/balance')).body;
		expect(balanceBody.usage.map((u) => [u.operation, u.contact_id, u.credits])).toEqual([
			['enrich', withLinkedin.id, 2],
			['enrich', withEmail.id, 1],
		]);
	});

	it('answers 404 when nothing matches and 400 without an email or LinkedIn URL', async () => {
		const none = await api('POST', '/v1/enrich', { email: 'nobody.here@nowhere.example' });
		expectError(none, 404, 'not_found');
		const noHandle = await api('POST', '/v1/enrich', {
			linkedin_url: 'https://www.linkedin.com/in/nobody-zzzzzzz',
		});
		expectError(noHandle, 404, 'not_found');
		expect(
			expectError(await api('POST', '/v1/enrich', { first_name: 'Ada' }), 400, 'invalid_request')
				.details,
		).toEqual({ field: 'email' });
		expect(
			expectError(
				await api('POST', '/v1/enrich', { email: 'not-an-email' }),
				400,
				'invalid_request',
			).details,
		).toEqual({ field: 'email' });
		expect(
			expectError(
				await api('POST', '/v1/enrich', { linkedin_url: 'http://example.com/x' }),
				400,
				'invalid_request',
			).details,
		).toEqual({ field: 'linkedin_url' });
		expect(await balance()).toBe(1_000_000);
	});

	it('Idempotency-Key: a replay returns the first answer, credits_charged included; another body is 409', async () => {
		const contact = (
			await api<UnlockAnswer>('POST', '/v1/unlock', { ids: ids.slice(10, 20) })
		).body.contacts.find((c) => c.email !== null)!;
		await env.sandbox.admin.reset();
		const headers = { 'Idempotency-Key': ['enrich', 'run-1', 'item-0'].join('-') };
		const first = await api<EnrichAnswer>(
			'POST',
			'/v1/enrich',
			{ email: contact.email, level: 'basic' },
			{ headers },
		);
		expect(first.body.credits_charged).toBe(1);
		// Without the key, a second enrich of a held contact is free and says so; with it, the first answer comes back.
		const replay = await api(
			'POST',
			'/v1/enrich',
			{ level: 'basic', email: contact.email },
			{ headers },
		);
		expect(replay.status).toBe(200);
		expect(replay.body).toEqual(first.body);
		expect(replay.headers[HEADERS.idempotentReplayed]).toBe('true');
		expect(first.headers[HEADERS.idempotentReplayed]).toBeUndefined();
		expect(await balance()).toBe(1_000_000 - 1);
		expect((await env.sandbox.admin.stats()).keys[KEYS.growth].idempotent_replays).toBe(1);
		expectError(
			await api('POST', '/v1/enrich', { email: contact.email, level: 'premium' }, { headers }),
			409,
			'conflict',
		);
		// Keys of unlock and enrich are kept apart.
		const unlockSameKey = await api('POST', '/v1/unlock', { ids: [ids[30]] }, { headers });
		expect(unlockSameKey.status).toBe(200);
		// Only 2xx answers are remembered: a no-match is answered afresh.
		const noMatch = { 'Idempotency-Key': 'enrich-no-match' };
		expectError(
			await api(
				'POST',
				'/v1/enrich',
				{ email: 'nobody.here@nowhere.example' },
				{ headers: noMatch },
			),
			404,
			'not_found',
		);
		expect(
			(await api('POST', '/v1/enrich', { email: contact.email }, { headers: noMatch })).status,
		).toBe(200);
		const tooLong = await api(
			'POST',
			'/v1/enrich',
			{ email: contact.email },
			{ headers: { 'Idempotency-Key': 'k'.repeat(256) } },
		);
		expect(expectError(tooLong, 400, 'invalid_request').details).toEqual({
			field: 'Idempotency-Key',
		});
	});

	it('answers 402 when the balance does not cover the record', async () => {
		const contact = (await api<UnlockAnswer>('POST', '/v1/unlock', { ids: [ids[5]] })).body
			.contacts[0];
		const email =
			contact.email ??
			(await api<UnlockAnswer>('POST', '/v1/unlock', { ids: [ids[6]] })).body.contacts[0].email;
		await env.sandbox.admin.reset();
		const reply = await api('POST', '/v1/enrich', { email }, { key: KEYS.empty });
		expect(expectError(reply, 402, 'insufficient_credits').details).toEqual({
			required: 1,
			balance: 0,
		});
	});
});
