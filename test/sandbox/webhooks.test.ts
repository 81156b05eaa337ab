/** Webhooks: subscriptions, signed deliveries (checked with an independent HMAC), retries, events changing data. */
import { createHmac } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import {
	webhookEventSchema,
	webhookSchema,
	type SavedList,
	type SearchResponse,
	type Webhook,
	type WebhooksPage,
} from '../../nodes/ContactData/shared/client/contract';
import { KEYS } from '../harness/sandbox';
import { Receiver, type Received } from '../support/webhookReceiver.cjs';
import { expectError, useSandbox, type UnlockAnswer } from './client';

const env = useSandbox({
	contacts: 5_000,
	rateLimits: false,
	webhookRetryDelaysMs: [50, 100, 150, 200],
});
const { api } = env;
let receiver: Receiver;
beforeEach(async () => {
	await env.sandbox.admin.reset();
	receiver = new Receiver();
	await receiver.start();
});
afterEach(() => receiver.stop());

async function waitFor<T>(
	read: () => Promise<T> | T,
	done: (value: T) => boolean,
	timeoutMs = 20_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value) || Date.now() > deadline) return value;
		await sleep(25);
	}
}

/** The answer of POST /v1/webhooks: the only one that shows the secret. */
interface CreatedWebhook extends Webhook {
	secret: string;
}

async function listOf(
	filters: Record<string, unknown> = { seniority: ['manager'] },
	name = 'Watched',
) {
	return (await api<SavedList>('POST', '/v1/lists', { name, filters })).body;
}

/** Verifies a delivery's Standard Webhooks signature with an HMAC computed here. */
function verify(delivery: Received, secret: string): boolean {
	const id = delivery.headers['webhook-id'] as string;
	const timestamp = delivery.headers['webhook-timestamp'] as string;
	const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
	const expected = createHmac('sha256', key)
		.update(`${id}.${timestamp}.${delivery.raw}`)
		.digest('base64');
	return (delivery.headers['webhook-signature'] as string).split(' ').includes(`v1,${expected}`);
}

describe('webhook subscriptions', () => {
	it('creates (secret shown once), lists without secrets, and deletes', async () => {
		const list = await listOf();
		const created = await api('POST', '/v1/webhooks', {
			url: receiver.url,
			events: ['job_change', 'intent'],
			list_ids: [list.id],
		});
		expect(created.status).toBe(201);
		const hook = webhookSchema.parse(created.body);
		expect(hook).toMatchObject({
			url: receiver.url,
			events: ['job_change', 'intent'],
			list_ids: [list.id],
		});
		expect(hook.id).toMatch(/^wh_/);
		expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
		expect(Buffer.from(hook.secret!.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
		const all = await api<Webhook>('POST', '/v1/webhooks', {
			url: 'https://hooks.example.com/x',
			events: ['role_change'],
		});
		expect(all.body.list_ids).toBeNull();
		const nullLists = await api<Webhook>('POST', '/v1/webhooks', {
			url: 'http://localhost:9/x',
			events: ['intent'],
			list_ids: null,
		});
		expect(nullLists.body.list_ids).toBeNull();

		const listed = await api<WebhooksPage>('GET', '/v1/webhooks');
		expect(listed.status).toBe(200);
		expect(listed.body.webhooks.map((w) => w.id)).toEqual([
			hook.id,
			all.body.id,
			nullLists.body.id,
		]);
		for (const w of listed.body.webhooks) expect(w).not.toHaveProperty('secret');

		const deleted = await api('DELETE', `/v1/webhooks/${hook.id}`);
		expect(deleted.status).toBe(204);
		expectError(await api('DELETE', `/v1/webhooks/${hook.id}`), 404, 'not_found');
		expect((await api<WebhooksPage>('GET', '/v1/webhooks')).body.webhooks).toHaveLength(2);
	});

	it('validates url, events and list_ids', async () => {
		const list = await listOf();
		const cases: Array<[unknown, string]> = [
			[{ url: 'http://hooks.example.com/x', events: ['intent'] }, 'url'],
			[{ url: 'ftp://127.0.0.1/x', events: ['intent'] }, 'url'],
			[{ url: 'not a url', events: ['intent'] }, 'url'],
			[{ events: ['intent'] }, 'url'],
			[{ url: receiver.url, events: [] }, 'events'],
			[{ url: receiver.url }, 'events'],
			[{ url: receiver.url, events: ['hired'] }, 'events'],
			[{ url: receiver.url, events: ['intent', 'intent'] }, 'events'],
			[{ url: receiver.url, events: ['intent'], list_ids: [] }, 'list_ids'],
			[{ url: receiver.url, events: ['intent'], list_ids: 'ls_1' }, 'list_ids'],
		];
		for (const [body, field] of cases) {
			const reply = await api('POST', '/v1/webhooks', body);
			expect({ body, details: expectError(reply, 400, 'invalid_request').details }).toEqual({
				body,
				details: { field },
			});
		}
		const unknownList = await api('POST', '/v1/webhooks', {
			url: receiver.url,
			events: ['intent'],
			list_ids: [list.id, 'ls_nope'],
		});
		expect(expectError(unknownList, 404, 'not_found').details).toMatchObject({ ids: ['ls_nope'] });
		expect((await api<WebhooksPage>('GET', '/v1/webhooks')).body.webhooks).toEqual([]);
		for (const url of ['http://127.0.0.1:1/x', 'http://[::1]:1/x', 'https://example.com/hook']) {
			expect((await api('POST', '/v1/webhooks', { url, events: ['intent'] })).status).toBe(201);
		}
	});
});

describe('deliveries', () => {
	it('delivers job changes signed per Standard Webhooks; later reads see the new job', async () => {
		const list = await listOf();
		const hook = (
			await api<CreatedWebhook>('POST', '/v1/webhooks', {
				url: receiver.url,
				events: ['job_change'],
				list_ids: [list.id],
			})
		).body;
		const { events } = await env.sandbox.admin.emitEvents({
			type: 'job_change',
			list_id: list.id,
			count: 2,
		});
		expect(events).toHaveLength(2);
		await waitFor(
			() => receiver.received,
			(r) => r.length >= 2,
		);
		expect(receiver.received).toHaveLength(2);
		for (const delivery of receiver.received) {
			const event = webhookEventSchema.parse(delivery.body);
			expect(delivery.headers['webhook-id']).toBe(event.id);
			expect(delivery.headers['content-type']).toMatch(/^application\/json/);
			expect(
				Math.abs(Number(delivery.headers['webhook-timestamp']) - Date.now() / 1000),
			).toBeLessThan(300);
			expect(verify(delivery, hook.secret)).toBe(true);
			expect(verify(delivery, `whsec_${Buffer.from('another secret').toString('base64')}`)).toBe(
				false,
			);
			expect(event).toMatchObject({ type: 'job_change', list_id: list.id });
			expect(event.changes!.previous.company.name).not.toBe(event.changes!.current.company.name);
			expect(event.contact.company.name).toBe(event.changes!.current.company.name);
			expect(event.contact.title).toBe(event.changes!.current.title);
		}
		expect(receiver.received.map((d) => d.body)).toEqual(events);

		// The change is in the data: an unlock now shows the new company and title.
		const contact = (
			await api<UnlockAnswer>('POST', '/v1/unlock', {
				ids: [events[0].contact.id],
				level: 'premium',
			})
		).body.contacts[0];
		expect(contact.company).toMatchObject(events[0].changes!.current.company);
		expect(contact.title).toBe(events[0].changes!.current.title);
		expect(contact.work_history?.[0]).toMatchObject({
			company: events[0].changes!.current.company.name,
			end: null,
		});
		expect(contact.work_history?.[1]).toMatchObject({
			company: events[0].changes!.previous.company.name,
			title: events[0].changes!.previous.title,
		});
	});

	it('delivers role changes (same company, new title) and intent signals; the contact is as the account holds it', async () => {
		const list = await listOf();
		const hook = (
			await api<CreatedWebhook>('POST', '/v1/webhooks', {
				url: receiver.url,
				events: ['role_change', 'intent'],
			})
		).body;
		const first = (
			await api<SearchResponse>('POST', '/v1/search', {
				filters: { seniority: ['manager'] },
				limit: 1,
			})
		).body.results[0];
		await api('POST', '/v1/unlock', { ids: [first.id] });
		const role = (await env.sandbox.admin.emitEvents({ type: 'role_change', list_id: list.id }))
			.events[0];
		expect(role.contact.id).toBe(first.id);
		expect(role.contact).toMatchObject({ unlocked: true, level: 'basic' });
		expect(role.changes!.previous.company).toEqual(role.changes!.current.company);
		expect(role.changes!.previous.title).not.toBe(role.changes!.current.title);
		const intent = (await env.sandbox.admin.emitEvents({ type: 'intent', list_id: list.id }))
			.events[0];
		expect(intent).not.toHaveProperty('changes');
		expect(intent.intent!.score).toBeGreaterThanOrEqual(0);
		expect(intent.intent!.score).toBeLessThanOrEqual(100);
		expect(typeof intent.intent!.topic).toBe('string');
		expect(intent.contact.unlocked).toBe(false);
		await waitFor(
			() => receiver.received,
			(r) => r.length >= 2,
		);
		expect(receiver.received.map((d) => d.body.type).sort()).toEqual(['intent', 'role_change']);
		expect(receiver.received.every((d) => verify(d, hook.secret))).toBe(true);
	});

	it('delivers only to subscriptions whose events and lists match', async () => {
		const watched = await listOf({ seniority: ['manager'] }, 'A');
		const other = await listOf({ seniority: ['director'] }, 'B');
		await api('POST', '/v1/webhooks', {
			url: `${receiver.url}?to=intent-only`,
			events: ['intent'],
		});
		await api('POST', '/v1/webhooks', {
			url: `${receiver.url}?to=other-list`,
			events: ['job_change'],
			list_ids: [other.id],
		});
		await api('POST', '/v1/webhooks', {
			url: `${receiver.url}?to=all-lists`,
			events: ['job_change'],
		});
		const deleted = (
			await api<Webhook>('POST', '/v1/webhooks', {
				url: `${receiver.url}?to=deleted`,
				events: ['job_change'],
			})
		).body;
		await api('DELETE', `/v1/webhooks/${deleted.id}`);
		// Another account's subscription never sees this account's events.
		await api(
			'POST',
			'/v1/webhooks',
			{ url: `${receiver.url}?to=empty-account`, events: ['job_change'] },
			{ key: KEYS.empty },
		);

		await env.sandbox.admin.emitEvents({ type: 'job_change', list_id: watched.id });
		await waitFor(
			() => env.sandbox.admin.deliveries(),
			(d) => d.length >= 1,
		);
		await sleep(200);
		expect(
			receiver.received.map((d) => new URL(d.path, 'http://receiver').searchParams.get('to')),
		).toEqual(['all-lists']);
		expect(
			(await env.sandbox.admin.deliveries()).map((d) => new URL(d.url).searchParams.get('to')),
		).toEqual(['all-lists']);
	});

	it('retries a failed delivery with the same event id until a 2xx, logging every attempt', async () => {
		const list = await listOf();
		const hook = (
			await api<CreatedWebhook>('POST', '/v1/webhooks', {
				url: receiver.url,
				events: ['job_change'],
			})
		).body;
		receiver.script = [500, 503];
		const event = (await env.sandbox.admin.emitEvents({ type: 'job_change', list_id: list.id }))
			.events[0];
		await waitFor(
			() => receiver.received,
			(r) => r.length >= 3,
		);
		expect(receiver.received.map((d) => d.headers['webhook-id'])).toEqual([
			event.id,
			event.id,
			event.id,
		]);
		expect(receiver.received.every((d) => verify(d, hook.secret))).toBe(true);
		const log = await waitFor(
			() => env.sandbox.admin.deliveries(),
			(d) => d.length >= 3,
		);
		expect(log.map((d) => [d.event_id, d.webhook_id, d.attempt, d.status, d.ok])).toEqual([
			[event.id, hook.id, 1, 500, false],
			[event.id, hook.id, 2, 503, false],
			[event.id, hook.id, 3, 200, true],
		]);
	});

	it('gives up after 5 attempts, including unreachable receivers', async () => {
		const list = await listOf();
		await api('POST', '/v1/webhooks', { url: receiver.url, events: ['intent'] });
		await api('POST', '/v1/webhooks', {
			url: 'http://127.0.0.1:1/unreachable',
			events: ['intent'],
		});
		receiver.script = [500, 500, 500, 500, 500, 500];
		await env.sandbox.admin.emitEvents({ type: 'intent', list_id: list.id });
		const log = await waitFor(
			() => env.sandbox.admin.deliveries(),
			(d) => d.length >= 10,
		);
		await sleep(400);
		const final = await env.sandbox.admin.deliveries();
		expect(final).toHaveLength(10);
		const unreachable = final.filter((d) => d.url.includes(':1/'));
		expect(unreachable.map((d) => [d.attempt, d.status, d.ok])).toEqual(
			[1, 2, 3, 4, 5].map((n) => [n, null, false]),
		);
		expect(receiver.received).toHaveLength(5);
		expect(log.every((d) => !d.ok)).toBe(true);
	});

	it('retries a delivery that gets no answer within 10 seconds', async () => {
		const list = await listOf();
		await api('POST', '/v1/webhooks', { url: receiver.url, events: ['intent'] });
		receiver.script = ['hang'];
		const event = (await env.sandbox.admin.emitEvents({ type: 'intent', list_id: list.id }))
			.events[0];
		const log = await waitFor(
			() => env.sandbox.admin.deliveries(),
			(d) => d.some((entry) => entry.ok),
			30_000,
		);
		expect(log.map((d) => [d.attempt, d.status, d.ok])).toEqual([
			[1, null, false],
			[2, 200, true],
		]);
		expect(receiver.received.map((d) => d.headers['webhook-id'])).toEqual([event.id, event.id]);
	});

	it('walks through the list members event after event, wrapping around', async () => {
		const ids = (
			await api<SearchResponse>('POST', '/v1/search', { filters: { country: ['DE'] }, limit: 3 })
		).body.results.map((r) => r.id);
		const list = (await api<SavedList>('POST', '/v1/lists', { name: 'Three', contact_ids: ids }))
			.body;
		const first = await env.sandbox.admin.emitEvents({
			type: 'intent',
			list_id: list.id,
			count: 2,
		});
		const second = await env.sandbox.admin.emitEvents({
			type: 'intent',
			list_id: list.id,
			count: 2,
		});
		const many = await env.sandbox.admin.emitEvents({
			type: 'intent',
			list_id: list.id,
			count: 10,
		});
		expect(first.events.map((e) => e.contact.id)).toEqual(ids.slice(0, 2));
		expect(second.events.map((e) => e.contact.id)).toEqual([ids[2], ids[0]]);
		// One event per member at most in one call.
		expect(many.events.map((e) => e.contact.id).sort()).toEqual([...ids].sort());
	});

	it("answers 404 for events on an unknown list, and uses the given key's account", async () => {
		const reply = await api(
			'POST',
			'/_sandbox/events',
			{ type: 'intent', list_id: 'ls_missing' },
			{ key: null },
		);
		expectError(reply, 404, 'not_found');
		const emptyList = (
			await api<SavedList>('POST', '/v1/lists', { name: 'E', filters: {} }, { key: KEYS.empty })
		).body;
		await api(
			'POST',
			'/v1/webhooks',
			{ url: receiver.url, events: ['intent'] },
			{ key: KEYS.empty },
		);
		const { events } = await env.sandbox.admin.emitEvents({
			type: 'intent',
			list_id: emptyList.id,
			count: 3,
			key: KEYS.empty,
		});
		expect(new Set(events.map((e) => e.contact.id)).size).toBe(3);
		await waitFor(
			() => receiver.received,
			(r) => r.length >= 3,
		);
		expect(receiver.received).toHaveLength(3);
	});
});
