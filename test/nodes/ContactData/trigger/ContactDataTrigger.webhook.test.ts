/**
 * The trigger's webhook() run through n8n-core's WebhookContext, fed by the sandbox's real signed
 * deliveries (and their retries) over HTTP, plus deliveries altered or forged from real ones.
 */
import { randomBytes } from 'node:crypto';
import { changeKeyOf } from '../../../../nodes/ContactData/shared/items/eventItem';

import type { INodeType } from 'n8n-workflow';
import { request } from 'undici';

import {
	HEADERS,
	PATHS,
	webhookSignature,
	type WebhookEvent,
} from '../../../../nodes/ContactData/shared/client/contract';
import type { ReceivedRequest, TriggerHost } from '../../../harness/webhook';
import type { DeliveryLogEntry } from '../../../harness/sandbox';
import { loadAfresh } from '../../../support/modules.cjs';
import {
	RETRY_DELAYS_MS,
	api,
	makeHost,
	useTriggerSandbox,
	triggerParameters,
	waitFor,
} from './setup';

const ATTEMPTS = RETRY_DELAYS_MS.length + 1;

const env = useTriggerSandbox();
let host: TriggerHost;

afterEach(async () => {
	await host.close();
});

async function startHost(parameters: ReturnType<typeof triggerParameters>): Promise<void> {
	host = makeHost(env.sandbox, parameters);
	await host.listen();
	await host.activate();
}

async function emit(
	type: WebhookEvent['type'],
	listId: string,
	count = 1,
): Promise<WebhookEvent[]> {
	return (await env.sandbox.admin.emitEvents({ type, list_id: listId, count }))
		.events as WebhookEvent[];
}

async function deliveries(): Promise<DeliveryLogEntry[]> {
	return await env.sandbox.admin.deliveries();
}

/** Waits until each event was acknowledged (2xx) or ran out of attempts; returns the log. */
async function settled(eventIds: string[], subscriptionCount = 1): Promise<DeliveryLogEntry[]> {
	return await waitFor('the deliveries to settle', async () => {
		const log = await deliveries();
		const done = eventIds.every((id) => {
			const ofEvent = log.filter((d) => d.event_id === id);
			const bySubscription = new Set(ofEvent.map((d) => d.webhook_id));
			return (
				bySubscription.size === subscriptionCount &&
				[...bySubscription].every((webhookId) => {
					const attempts = ofEvent.filter((d) => d.webhook_id === webhookId);
					return attempts.some((d) => d.ok) || attempts.length === ATTEMPTS;
				})
			);
		});
		return done ? log : undefined;
	});
}

function executedIds(): string[] {
	return host.executions().map((items) => {
		expect(items).toHaveLength(1);
		return String(items[0].json.id ?? items[0].json.event_id);
	});
}

function requestsFor(eventId: string): ReceivedRequest[] {
	return host.requests.filter((r) => r.eventId === eventId);
}

function heldSecret(): string {
	return String(host.nodeStaticData().subscriptionSecret);
}

/** Posts to the trigger's production URL as a sender would. */
async function post(headers: Record<string, string>, body: string | Buffer) {
	const response = await request(host.webhookUrl(), { method: 'POST', headers, body });
	const text = await response.body.text();
	return {
		status: response.statusCode,
		body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
	};
}

function signedHeaders(
	secret: string,
	id: string,
	body: string | Buffer,
	timestamp = Math.floor(Date.now() / 1000),
) {
	return {
		'content-type': 'application/json',
		[HEADERS.webhookId]: id,
		[HEADERS.webhookTimestamp]: String(timestamp),
		[HEADERS.webhookSignature]: webhookSignature(secret, id, timestamp, body),
	};
}

/** A copy of `object` without `key`. */
function without<T extends object, K extends keyof T>(object: T, key: K): Omit<T, K> {
	const copy: Partial<T> = { ...object };
	delete copy[key];
	return copy as Omit<T, K>;
}

/** The trigger as another n8n process loads it: the same code with its own module state (memory). */
function triggerOfAnotherProcess(): INodeType {
	const { ContactDataTrigger } = loadAfresh<{ ContactDataTrigger: new () => INodeType }>(
		'nodes/ContactData/ContactDataTrigger.node',
	);
	return new ContactDataTrigger();
}

/** One real delivery, as the trigger received it, to replay or alter. */
async function captureRealDelivery(): Promise<ReceivedRequest> {
	const [event] = await emit('job_change', env.listA);
	await settled([event.id]);
	return requestsFor(event.id)[0];
}

describe('real signed deliveries', () => {
	it('start one execution per event, with the event as the item, each acknowledged at once', async () => {
		await startHost(triggerParameters(['job_change'], [env.listA]));
		const events = await emit('job_change', env.listA, 3);
		const log = await settled(events.map((e) => e.id));

		const byId = (a: { id?: unknown }, b: { id?: unknown }) =>
			String(a.id).localeCompare(String(b.id));
		// Each event as delivered, with the change key the trigger adds (see changes.ts).
		expect(
			host
				.executions()
				.map((items) => items[0].json)
				.sort(byId),
		).toEqual(
			[...events].sort(byId).map((event) => ({ ...event, change_key: changeKeyOf(event) })),
		);
		expect(host.executions()[0][0].json).toMatchObject({
			list_id: env.listA,
			contact: { id: expect.stringMatching(/^ct_/) },
			changes: {
				previous: { title: expect.any(String) },
				current: { company: { name: expect.any(String) } },
			},
		});
		expect(log).toHaveLength(3);
		expect(log.every((d) => d.attempt === 1 && d.status === 200)).toBe(true);
	});

	it('give a flat item with Simplify', async () => {
		await startHost(triggerParameters(['job_change', 'intent'], [], { simplify: true }));
		const [change] = await emit('job_change', env.listB);
		const [intent] = await emit('intent', env.listB);
		await settled([change.id, intent.id]);

		const items = Object.fromEntries(
			host.executions().map(([item]) => [String(item.json.event_id), item.json]),
		);
		const [first, second] = [items[change.id], items[intent.id]];
		expect(first).toMatchObject({
			event_id: change.id,
			event_type: 'job_change',
			list_id: env.listB,
			contact_id: change.contact.id,
			previous_title: change.changes!.previous.title,
			previous_company: change.changes!.previous.company.name,
			current_title: change.changes!.current.title,
			current_company: change.changes!.current.company.name,
		});
		expect(second).toMatchObject({
			event_id: intent.id,
			event_type: 'intent',
			intent_topic: intent.intent!.topic,
			intent_score: intent.intent!.score,
		});
		expect(second).not.toHaveProperty('previous_title');

		// The contact is flattened as the Contact Data node's Simplify does (name, title, company and
		// email first), with its id as contact_id; a preview's email and LinkedIn URL stay null.
		const { contact } = change;
		expect(contact.unlocked).toBe(false);
		expect(Object.keys(first).slice(4, 10)).toEqual([
			'contact_id',
			'name',
			'title',
			'company_name',
			'email',
			'linkedin_url',
		]);
		expect(first).toMatchObject({
			name: [contact.first_name, contact.last_name].filter(Boolean).join(' ') || null,
			title: contact.title,
			company_name: contact.company.name,
			email: null,
			linkedin_url: null,
			first_name: contact.first_name,
			department: contact.department,
			company_domain: contact.company.domain,
			country: contact.location.country,
			has_email: contact.has_email,
			has_phone: contact.has_phone,
			unlocked: false,
		});
		expect(first).not.toHaveProperty('id');
	});

	it('acknowledge an event type or list not selected without an execution (no retries)', async () => {
		// A subscription for more than the trigger now selects, as left by an earlier setting.
		await startHost(triggerParameters(['job_change', 'role_change'], [env.listA, env.listB]));
		host.parameters = triggerParameters(['job_change'], [env.listA]);

		const [otherType] = await emit('role_change', env.listA);
		const [otherList] = await emit('job_change', env.listB);
		const [wanted] = await emit('job_change', env.listA);
		const log = await settled([otherType.id, otherList.id, wanted.id]);

		expect(executedIds()).toEqual([wanted.id]);
		expect(log.every((d) => d.attempt === 1 && d.status === 200)).toBe(true);
		expect(requestsFor(otherType.id)[0].body).toMatchObject({
			ignored: 'the event type role_change is not selected',
		});
		expect(requestsFor(otherList.id)[0].body).toMatchObject({
			ignored: `the saved list ${env.listB} is not watched`,
		});
	});

	it('acknowledge intent below the minimum score without an execution', async () => {
		await startHost(triggerParameters(['intent'], [env.listA], { minIntentScore: 50 }));
		const events = await emit('intent', env.listA, 20);
		await settled(events.map((e) => e.id));

		const expected = events.filter((e) => e.intent!.score >= 50).map((e) => e.id);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(events.length);
		expect(executedIds().sort()).toEqual(expected.sort());
	});

	it('answer a retried delivery (same event id) with 2xx and no second execution', async () => {
		await startHost(triggerParameters(['job_change'], [env.listA]));
		host.dropAnswers = 1; // the first answer is lost on the way back, so the sandbox retries

		const [event] = await emit('job_change', env.listA);
		const log = await settled([event.id]);

		expect(log.map((d) => [d.attempt, d.ok])).toEqual([
			[1, false],
			[2, true],
		]);
		expect(executedIds()).toEqual([event.id]);
		const [first, retry] = requestsFor(event.id);
		expect(first).toMatchObject({ dropped: true, status: 200 });
		expect(retry).toMatchObject({ dropped: false, status: 200, body: { duplicate: true } });
		expect(retry.headers[HEADERS.webhookId]).toBe(event.id);
	});

	it('refuse with 401 every attempt of a subscription whose secret it does not hold', async () => {
		await startHost(triggerParameters(['job_change'], [env.listA]));
		const stray = await api<{ id: string }>(env.sandbox, 'POST', PATHS.webhooks, {
			url: host.webhookUrl(),
			events: ['job_change'],
		});

		const [event] = await emit('job_change', env.listA);
		const log = await settled([event.id], 2);

		expect(log.filter((d) => d.webhook_id === stray.body.id).map((d) => d.status)).toEqual(
			Array(ATTEMPTS).fill(401),
		);
		expect(log.filter((d) => d.webhook_id !== stray.body.id).map((d) => d.status)).toEqual([200]);
		expect(executedIds()).toEqual([event.id]);
	});
});

describe('altered and forged deliveries', () => {
	beforeEach(async () => {
		await startHost(triggerParameters(['job_change'], [env.listA]));
	});

	it('refuse a forged, unsigned or altered delivery with 401 and start nothing', async () => {
		const real = await captureRealDelivery();
		const body = real.rawBody.toString();
		const id = String(real.headers[HEADERS.webhookId]);
		const forgedId = `evt_forged${randomBytes(4).toString('hex')}`;
		const forgedBody = body.replaceAll(id, forgedId);

		const attacker = `whsec_${randomBytes(24).toString('base64')}`;
		expect(await post(signedHeaders(attacker, forgedId, forgedBody), forgedBody)).toEqual({
			status: 401,
			body: { message: 'Unauthorized: bad_signature' },
		});
		const unsigned = without(
			signedHeaders(attacker, forgedId, forgedBody),
			HEADERS.webhookSignature,
		);
		expect((await post(unsigned, forgedBody)).status).toBe(401);
		// The real headers with a re-serialised body: same JSON, other bytes.
		const reserialised = JSON.stringify(JSON.parse(body), null, 2);
		const realHeaders = {
			'content-type': 'application/json',
			[HEADERS.webhookId]: id,
			[HEADERS.webhookTimestamp]: String(real.headers[HEADERS.webhookTimestamp]),
			[HEADERS.webhookSignature]: String(real.headers[HEADERS.webhookSignature]),
		};
		expect(await post(realHeaders, reserialised)).toEqual({
			status: 401,
			body: { message: 'Unauthorized: bad_signature' },
		});
		expect((await post(realHeaders, body)).status).toBe(200); // the untouched bytes still verify

		expect(executedIds()).toEqual([id]);
	});

	it('refuse a stale signature (older than 5 minutes) with 401, and treat a fresh replay as a retry', async () => {
		const real = await captureRealDelivery();
		const id = String(real.headers[HEADERS.webhookId]);
		const now = Math.floor(Date.now() / 1000);

		const stale = await post(
			signedHeaders(heldSecret(), id, real.rawBody, now - 301),
			real.rawBody,
		);
		expect(stale).toEqual({ status: 401, body: { message: 'Unauthorized: stale_timestamp' } });
		const replay = await post(
			signedHeaders(heldSecret(), id, real.rawBody, now - 30),
			real.rawBody,
		);
		expect(replay).toMatchObject({ status: 200, body: { duplicate: true, event_id: id } });

		expect(executedIds()).toEqual([id]);
	});

	it('refuse a correctly signed but malformed body with 400 and start nothing', async () => {
		const real = await captureRealDelivery();
		const event = JSON.parse(real.rawBody.toString()) as WebhookEvent;
		const send = async (id: string, body: string, contentType = 'application/json') =>
			await post({ ...signedHeaders(heldSecret(), id, body), 'content-type': contentType }, body);

		const notJson = await send('evt_m1', 'job change: Ada', 'text/plain');
		expect(notJson).toEqual({
			status: 400,
			body: { message: 'Bad request: The body is not JSON' },
		});
		const noContact = without({ ...event, id: 'evt_m2' }, 'contact');
		expect((await send('evt_m2', JSON.stringify(noContact))).body?.message).toMatch(
			/^Bad request: Not an event: contact/,
		);
		const otherId = await send('evt_m3', JSON.stringify({ ...event, id: 'evt_m4' }));
		expect(otherId.body?.message).toBe(
			'Bad request: The event id evt_m4 differs from the webhook-id header evt_m3',
		);
		const noChanges = without({ ...event, id: 'evt_m5' }, 'changes');
		expect((await send('evt_m5', JSON.stringify(noChanges))).status).toBe(400);

		expect(executedIds()).toEqual([event.id]);
	});

	it('treat a valid replay as a retry for the whole signature window, however many events came since', async () => {
		host.runsExecutions = false; // webhook() alone: the fast answer, before any execution
		const real = await captureRealDelivery();
		const event = JSON.parse(real.rawBody.toString()) as WebhookEvent;
		const send = async (id: string) => {
			const body = JSON.stringify({ ...event, id });
			return await post(signedHeaders(heldSecret(), id, body), body);
		};
		const newer = Array.from({ length: 1_500 }, (_, i) => `evt_bulk${i}`);
		for (const id of newer) expect((await send(id)).status).toBe(200);
		expect(host.startedExecutions()).toBe(newer.length + 1);

		// The real event's own signed bytes, still inside the 5-minute window.
		const replay = await post(
			{
				'content-type': 'application/json',
				[HEADERS.webhookId]: event.id,
				[HEADERS.webhookTimestamp]: String(real.headers[HEADERS.webhookTimestamp]),
				[HEADERS.webhookSignature]: String(real.headers[HEADERS.webhookSignature]),
			},
			real.rawBody,
		);
		expect(replay).toMatchObject({ status: 200, body: { duplicate: true, event_id: event.id } });
		expect(host.startedExecutions()).toBe(newer.length + 1);
	});
});

describe('exactly once across n8n processes', () => {
	let other: TriggerHost | undefined;

	afterEach(async () => {
		await other?.close();
		other = undefined;
	});

	/** The captured delivery's own bytes and signed headers, posted to `url`. */
	async function replay(real: ReceivedRequest, url: string) {
		const headers = {
			'content-type': 'application/json',
			[HEADERS.webhookId]: String(real.headers[HEADERS.webhookId]),
			[HEADERS.webhookTimestamp]: String(real.headers[HEADERS.webhookTimestamp]),
			[HEADERS.webhookSignature]: String(real.headers[HEADERS.webhookSignature]),
		};
		const response = await request(url, { method: 'POST', headers, body: real.rawBody });
		return {
			status: response.statusCode,
			body: (await response.body.json()) as Record<string, unknown>,
		};
	}

	it('acknowledge an accepted event with a small JSON answer naming it', async () => {
		await startHost(triggerParameters(['job_change'], [env.listA]));
		const real = await captureRealDelivery();
		expect(real).toMatchObject({
			status: 200,
			body: { received: true, event_id: real.headers[HEADERS.webhookId] },
		});
	});

	it('pass a copy that reaches another process on to no workflow, and still pass new events on there', async () => {
		await startHost(triggerParameters(['job_change'], [env.listA], { simplify: true }));
		const real = await captureRealDelivery();
		const eventId = String(real.headers[HEADERS.webhookId]);
		other = host.anotherProcess(triggerOfAnotherProcess());
		await other.listen();

		// That process never saw the event: it starts an execution, whose trigger drops the copy.
		expect(await replay(real, other.webhookUrl())).toEqual({
			status: 200,
			body: { received: true, event_id: eventId },
		});
		expect(other.startedExecutions()).toBe(1);
		expect(other.executions()).toEqual([]);
		expect(host.executions().map(([item]) => item.json.event_id)).toEqual([eventId]);

		const event = JSON.parse(real.rawBody.toString()) as WebhookEvent;
		const body = JSON.stringify({ ...event, id: 'evt_fresh1' });
		const fresh = await request(other.webhookUrl(), {
			method: 'POST',
			headers: signedHeaders(heldSecret(), 'evt_fresh1', body),
			body,
		});
		expect(fresh.statusCode).toBe(200);
		expect(other.executions().map(([item]) => item.json.event_id)).toEqual(['evt_fresh1']);
	});

	it('pass an event on to both a test listener and the active workflow (test runs record nothing)', async () => {
		await startHost(triggerParameters(['job_change'], [env.listA]));
		await host.activate({ test: true });
		const [event] = await emit('job_change', env.listA);
		await settled([event.id], 2);

		expect(host.executions('test').map(([item]) => item.json.id)).toEqual([event.id]);
		expect(host.executions('production').map(([item]) => item.json.id)).toEqual([event.id]);
	});

	it('record every event of a burst, though n8n records concurrent executions without a lock', async () => {
		await startHost(triggerParameters(['job_change'], [env.listA]));
		const real = await captureRealDelivery();
		const event = JSON.parse(real.rawBody.toString()) as WebhookEvent;
		const bodies = Array.from({ length: 8 }, (_, i) =>
			JSON.stringify({ ...event, id: `evt_burst${i}` }),
		);
		const signed = bodies.map((body, i) => ({
			headers: signedHeaders(heldSecret(), `evt_burst${i}`, body),
			body,
		}));
		// All at once to one process: their executions record at the same moments.
		const answers = await Promise.all(
			signed.map(async ({ headers, body }) => await post(headers, body)),
		);
		expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
		expect(host.executions()).toHaveLength(9);

		// Copies of each, one at a time, to a process that never saw them: every one is dropped.
		other = host.anotherProcess(triggerOfAnotherProcess());
		await other.listen();
		for (const { headers, body } of signed) {
			expect(
				(await request(other.webhookUrl(), { method: 'POST', headers, body })).statusCode,
			).toBe(200);
		}
		expect(other.startedExecutions()).toBe(8);
		expect(other.executions()).toEqual([]);
	});

	it('keep no event ids in the workflow static data, even where n8n saves it', async () => {
		await startHost(triggerParameters(['job_change'], [env.listA]));
		host.savesStaticDataOfStartedExecutions = true;
		await captureRealDelivery();
		expect(Object.keys(host.nodeStaticData()).sort()).toEqual([
			'subscriptionId',
			'subscriptionSecret',
			'subscriptionUrl',
		]);
	});
});
