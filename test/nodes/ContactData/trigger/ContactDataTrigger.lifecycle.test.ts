/**
 * The subscription lifecycle (checkExists, create, delete) run through n8n-core's HookContext
 * against the sandbox, as n8n runs it on activation, restart and deactivation.
 */
import { PATHS } from '../../../../nodes/ContactData/shared/client/contract';
import type { TriggerHost } from '../../../harness/webhook';
import {
	api,
	makeHost,
	useTriggerSandbox,
	subscriptions,
	triggerParameters,
	waitFor,
} from './setup';

const env = useTriggerSandbox();
let host: TriggerHost;

beforeEach(async () => {
	host = makeHost(
		env.sandbox,
		triggerParameters(['job_change', 'role_change'], [env.listB, env.listA]),
	);
	await host.listen();
});

afterEach(async () => {
	await host.close();
});

function held() {
	const data = host.nodeStaticData();
	return { id: data.subscriptionId, secret: data.subscriptionSecret };
}

/** API calls the sandbox counted for the growth key, by route. */
async function requestCounts(): Promise<Record<string, number>> {
	const stats = await env.sandbox.admin.stats();
	return (stats.keys.sk_sandbox_growth?.requests ?? {}) as Record<string, number>;
}

describe('activation (checkExists, then create)', () => {
	it('subscribes the webhook URL for the chosen events and lists, keeping id and secret', async () => {
		expect(await host.activate()).toEqual({ existed: false });

		const [subscription, ...others] = await subscriptions(env.sandbox);
		expect(others).toEqual([]);
		expect(subscription).toMatchObject({
			url: host.webhookUrl(),
			events: ['job_change', 'role_change'],
			list_ids: [env.listA, env.listB].sort(),
		});
		expect(held().id).toBe(subscription.id);
		expect(held().secret).toMatch(/^whsec_/);
	});

	it('watches every saved list (list_ids null) when no list is chosen', async () => {
		host.parameters = triggerParameters(['intent']);
		await host.activate();
		expect(await subscriptions(env.sandbox)).toMatchObject([
			{ events: ['intent'], list_ids: null },
		]);
	});

	it('after a restart, adopts the subscription it holds instead of creating another', async () => {
		await host.activate();
		const before = held();

		// A restart: a fresh Workflow and HookContext built from the saved static data.
		expect(await host.activate()).toEqual({ existed: true });

		const all = await subscriptions(env.sandbox);
		expect(all.map((s) => s.id)).toEqual([before.id]);
		expect(held()).toEqual(before);
		expect((await requestCounts())['POST /v1/webhooks']).toBe(1);
	});

	it('after a restart with lost static data, replaces the unverifiable subscription: still one', async () => {
		await host.activate();
		const lost = held();
		host.savedStaticData = {};

		expect(await host.activate()).toEqual({ existed: false });

		const all = await subscriptions(env.sandbox);
		expect(all).toHaveLength(1);
		expect(all[0].id).not.toBe(lost.id);
		expect(all[0].url).toBe(host.webhookUrl());
		expect(held().id).toBe(all[0].id);
		expect(held().secret).not.toBe(lost.secret);

		// Nothing lost: the next event reaches the workflow through the new subscription.
		const { events } = await env.sandbox.admin.emitEvents({
			type: 'job_change',
			list_id: env.listA,
			count: 1,
		});
		await waitFor('the delivery', async () => (host.executions().length === 1 ? true : undefined));
		expect(host.executions()[0][0].json.id).toBe(events[0].id);
	});

	it('replaces a subscription held for other events (settings changed while stopped)', async () => {
		await host.activate();
		const old = held();
		host.parameters = triggerParameters(['job_change'], [env.listA]);

		expect(await host.activate()).toEqual({ existed: false });

		expect(await subscriptions(env.sandbox)).toMatchObject([
			{ events: ['job_change'], list_ids: [env.listA] },
		]);
		expect(held().id).not.toBe(old.id);
	});

	it('removes other subscriptions to the same URL, and leaves other URLs alone', async () => {
		const stray = await api<{ id: string }>(env.sandbox, 'POST', PATHS.webhooks, {
			url: host.webhookUrl(),
			events: ['intent'],
		});
		const elsewhere = await api<{ id: string }>(env.sandbox, 'POST', PATHS.webhooks, {
			url: 'https://elsewhere.example/hook',
			events: ['job_change'],
		});

		await host.activate();

		const ids = (await subscriptions(env.sandbox)).map((s) => s.id);
		expect(ids).toHaveLength(2);
		expect(ids).toContain(elsewhere.body.id);
		expect(ids).toContain(held().id);
		expect(ids).not.toContain(stray.body.id);
	});

	it('refuses an n8n webhook URL the service cannot deliver to, before sending anything', async () => {
		host.publicBaseUrl = 'http://n8n.internal.example:5678';
		await expect(host.activate()).rejects.toThrow(
			'The service cannot deliver events to http://n8n.internal.example',
		);
		expect((await requestCounts())['POST /v1/webhooks']).toBeUndefined();
		expect(await subscriptions(env.sandbox)).toEqual([]);
	});

	it('refuses no events, or a saved list that is not an ID, naming the field, before any call', async () => {
		host.parameters = triggerParameters([]);
		await expect(host.activate()).rejects.toThrow('Choose at least one event in "Events"');
		host.parameters = triggerParameters(['job_change'], ['Directors']);
		await expect(host.activate()).rejects.toThrow(
			'Saved list 1 in "Saved Lists to Watch" is "Directors"',
		);
		expect(
			Object.keys(await requestCounts()).filter((route) => route.includes('/v1/webhooks')),
		).toEqual([]);
	});

	it('surfaces a refused key on create as the API error, and keeps nothing', async () => {
		host.credentials = {
			contactDataApi: { apiKey: 'sk_sandbox_starter', baseUrl: env.sandbox.url },
		};
		await expect(host.activate()).rejects.toMatchObject({ httpCode: '403' });
		expect(host.nodeStaticData().subscriptionId).toBeUndefined();
	});

	it('works with the test URL ("Listen for test event") and removes that subscription after the event', async () => {
		await host.activate();
		const production = held();

		expect(await host.activate({ test: true })).toEqual({ existed: false });
		const urls = (await subscriptions(env.sandbox)).map((s) => s.url).sort();
		expect(urls).toEqual([host.webhookUrl(), host.webhookUrl({ test: true })].sort());

		await env.sandbox.admin.emitEvents({ type: 'role_change', list_id: env.listB, count: 1 });
		await waitFor('the test execution', async () =>
			host.executions('test').length === 1 ? true : undefined,
		);
		await waitFor('the production execution', async () =>
			host.executions('production').length > 0 ? true : undefined,
		);
		await waitFor('the test subscription to go', async () =>
			(await subscriptions(env.sandbox)).length === 1 ? true : undefined,
		);

		expect(await subscriptions(env.sandbox)).toMatchObject([
			{ id: production.id, url: host.webhookUrl() },
		]);
		expect(held()).toEqual(production);
		expect(host.executions('production')).toHaveLength(1);
		expect(host.executions('test')[0][0].json).toMatchObject({
			type: 'role_change',
			list_id: env.listB,
		});
	});
});

describe('deactivation (delete)', () => {
	it('deletes the subscription and clears the static data', async () => {
		await host.activate();
		expect(await host.deactivate()).toBe(true);
		expect(await subscriptions(env.sandbox)).toEqual([]);
		expect(host.nodeStaticData()).not.toHaveProperty('subscriptionId');
		expect(host.nodeStaticData()).not.toHaveProperty('subscriptionSecret');
	});

	it('counts a subscription already gone (404) as deleted', async () => {
		await host.activate();
		const { id } = held();
		expect((await api(env.sandbox, 'DELETE', PATHS.webhook(String(id)))).status).toBe(204);

		expect(await host.deactivate()).toBe(true);
		expect(host.nodeStaticData()).not.toHaveProperty('subscriptionId');
		// Ours above, then the node's, answered 404.
		expect((await requestCounts())['DELETE /v1/webhooks/:id']).toBe(2);
	});

	it('removes every subscription to its URL when the static data was lost', async () => {
		await host.activate();
		host.savedStaticData = {};
		expect(await host.deactivate()).toBe(true);
		expect(await subscriptions(env.sandbox)).toEqual([]);
	});

	it('surfaces a refused key as the API error and keeps the subscription id to try again', async () => {
		await host.activate();
		const before = held();
		host.credentials = {
			contactDataApi: { apiKey: 'sk_sandbox_revoked', baseUrl: env.sandbox.url },
		};

		await expect(host.deactivate()).rejects.toMatchObject({ httpCode: '401' });
		expect(held()).toEqual(before);
		expect((await subscriptions(env.sandbox)).map((s) => s.id)).toEqual([before.id]);
	});

	it('surfaces a service that keeps failing (after the transport’s retries), never swallowing it', async () => {
		await host.activate();
		const before = held();
		await env.sandbox.admin.setFaults([
			{ route: 'DELETE /v1/webhooks/*', kind: 'error', status: 503 },
		]);

		await expect(host.deactivate()).rejects.toMatchObject({ httpCode: '503' });
		expect(held()).toEqual(before);

		await env.sandbox.admin.clearFaults();
		expect(await host.deactivate()).toBe(true);
		expect(await subscriptions(env.sandbox)).toEqual([]);
	});
});
