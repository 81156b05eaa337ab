/** GET /v1/credits/balance and POST /v1/credits/refund. */
import {
	balanceSchema,
	refundSchema,
	type Balance,
	type Refund,
} from '../../nodes/ContactData/shared/client/contract';
import { KEYS } from '../harness/sandbox';
import { expectError, firstContactIds, useSandbox } from './client';

const env = useSandbox({ contacts: 5_000, rateLimits: false });
const { api } = env;
let ids: string[];

beforeAll(async () => {
	ids = await firstContactIds(api, 200);
});

describe('GET /v1/credits/balance', () => {
	it('answers the balance, tier, and the latest 50 usage entries newest first', async () => {
		const fresh = balanceSchema.parse((await api('GET', '/v1/credits/balance')).body);
		expect(fresh).toEqual({ balance: 1_000_000, tier: 'growth', usage: [], refunds: [] });
		expect(
			(await api<Balance>('GET', '/v1/credits/balance', undefined, { key: KEYS.empty })).body
				.balance,
		).toBe(0);

		await api('POST', '/v1/unlock', { ids: ids.slice(0, 30) });
		await api('POST', '/v1/unlock', { ids: ids.slice(30, 60), level: 'premium' });
		await api('POST', '/v1/unlock', { ids: ids.slice(0, 30) }); // free: no usage entries
		const body = balanceSchema.parse((await api('GET', '/v1/credits/balance')).body);
		expect(body.balance).toBe(1_000_000 - 30 - 60);
		expect(body.usage).toHaveLength(50);
		expect(body.usage[0]).toMatchObject({ operation: 'unlock', contact_id: ids[59], credits: 2 });
		expect(body.usage[29]).toMatchObject({ contact_id: ids[30], credits: 2 });
		expect(body.usage[30]).toMatchObject({ contact_id: ids[29], credits: 1 });
		expect(body.usage[49]).toMatchObject({ contact_id: ids[10], credits: 1 });
		expect(Date.parse(body.usage[0].at)).toBeGreaterThanOrEqual(Date.parse(body.usage[49].at));
	});
});

describe('POST /v1/credits/refund', () => {
	it('approves claims at once, returning what was paid (premium 2)', async () => {
		await api('POST', '/v1/unlock', { ids: [ids[0]] });
		await api('POST', '/v1/unlock', { ids: [ids[1]], level: 'premium' });
		const basic = await api<Refund>('POST', '/v1/credits/refund', {
			contact_id: ids[0],
			reason: 'bounced_email',
			note: 'hard bounce',
		});
		expect(basic.status).toBe(201);
		expect(refundSchema.parse(basic.body)).toMatchObject({
			contact_id: ids[0],
			reason: 'bounced_email',
			status: 'approved',
			credits_refunded: 1,
		});
		expect(basic.body.id).toMatch(/^rf_/);
		const premium = await api<Refund>('POST', '/v1/credits/refund', {
			contact_id: ids[1],
			reason: 'wrong_phone',
		});
		expect(premium.body).toMatchObject({ status: 'approved', credits_refunded: 2 });
		const balance = (await api<Balance>('GET', '/v1/credits/balance')).body;
		expect(balance.balance).toBe(1_000_000);
		expect(balance.refunds.map((r) => r.id)).toEqual([premium.body.id, basic.body.id]);
		// Another reason for the same contact is a separate claim, but nothing more was paid.
		const second = await api('POST', '/v1/credits/refund', {
			contact_id: ids[1],
			reason: 'wrong_title',
		});
		expect(second.body).toMatchObject({ status: 'approved', credits_refunded: 0 });
	});

	it('answers 409 for a second claim with the same contact and reason, and 404 for a contact never unlocked', async () => {
		await api('POST', '/v1/unlock', { ids: [ids[0]] });
		await api('POST', '/v1/credits/refund', { contact_id: ids[0], reason: 'wrong_title' });
		expectError(
			await api('POST', '/v1/credits/refund', { contact_id: ids[0], reason: 'wrong_title' }),
			409,
			'conflict',
		);
		expectError(
			await api('POST', '/v1/credits/refund', { contact_id: ids[1], reason: 'wrong_title' }),
			404,
			'not_found',
		);
		expectError(
			await api('POST', '/v1/credits/refund', { contact_id: 'ct_zzzzzzz', reason: 'wrong_title' }),
			404,
			'not_found',
		);
		// Unlocked by another account only: still never unlocked by this one.
		await env.sandbox.admin.setBalance(KEYS.empty, 5);
		await api('POST', '/v1/unlock', { ids: [ids[2]] }, { key: KEYS.empty });
		expectError(
			await api('POST', '/v1/credits/refund', { contact_id: ids[2], reason: 'wrong_phone' }),
			404,
			'not_found',
		);
	});

	it('approves the first 100 accepted claims, then leaves claims pending with 0 credits', async () => {
		await api('POST', '/v1/unlock', { ids: ids.slice(0, 100) });
		await api('POST', '/v1/unlock', { ids: ids.slice(100, 102) });
		for (let n = 0; n < 100; n++) {
			const reply = await api<Refund>('POST', '/v1/credits/refund', {
				contact_id: ids[n],
				reason: 'bounced_email',
			});
			expect(reply.body.status).toBe('approved');
		}
		// A refused duplicate does not use up a place.
		expectError(
			await api('POST', '/v1/credits/refund', { contact_id: ids[0], reason: 'bounced_email' }),
			409,
			'conflict',
		);
		const pending = await api<Refund>('POST', '/v1/credits/refund', {
			contact_id: ids[100],
			reason: 'bounced_email',
		});
		expect(pending.status).toBe(201);
		expect(pending.body).toMatchObject({ status: 'pending', credits_refunded: 0 });
		const balance = (await api<Balance>('GET', '/v1/credits/balance')).body;
		expect(balance.balance).toBe(1_000_000 - 2);
		expect(balance.refunds).toHaveLength(50);
		expect(balance.refunds[0].id).toBe(pending.body.id);
	});

	it('validates the claim', async () => {
		const cases: Array<[unknown, string]> = [
			[{ reason: 'wrong_title' }, 'contact_id'],
			[{ contact_id: 'abc', reason: 'wrong_title' }, 'contact_id'],
			[{ contact_id: ids[0] }, 'reason'],
			[{ contact_id: ids[0], reason: 'changed_my_mind' }, 'reason'],
			[{ contact_id: ids[0], reason: 'wrong_title', note: 5 }, 'note'],
		];
		for (const [body, field] of cases) {
			const reply = await api('POST', '/v1/credits/refund', body);
			expect({ body, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				body,
				details: { field },
			});
		}
	});
});
