/**
 * The webhook trigger beside the poll trigger: it acknowledges event types it does not know, and
 * gives each job or role change the same change key a poll gives it.
 */
import { request } from 'undici';

import { HEADERS, webhookSignature } from '../../../../nodes/ContactData/shared/client/contract';
import { changeKeyOf } from '../../../../nodes/ContactData/shared/items/eventItem';
import type { WebhookEvent } from '../../../../nodes/ContactData/shared/client/contract';
import type { TriggerHost } from '../../../harness/webhook';
import { makeHost, triggerParameters, useTriggerSandbox, waitFor } from './setup';

const env = useTriggerSandbox();
let host: TriggerHost;

beforeEach(async () => {
	host = makeHost(env.sandbox, triggerParameters(['job_change'], [env.listA]));
	await host.listen();
	await host.activate();
});
afterEach(async () => {
	await host.close();
});

async function postSigned(body: string, id: string) {
	const secret = String(host.nodeStaticData().subscriptionSecret);
	const timestamp = Math.floor(Date.now() / 1000);
	const response = await request(host.webhookUrl(), {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			[HEADERS.webhookId]: id,
			[HEADERS.webhookTimestamp]: String(timestamp),
			[HEADERS.webhookSignature]: webhookSignature(secret, id, timestamp, body),
		},
		body,
	});
	await response.body.text();
	return response.statusCode;
}

it('answers an event of a type it does not know with 2xx and starts nothing', async () => {
	const id = 'evt_unknowntype000000000001';
	const body = JSON.stringify({
		id,
		type: 'funding_round',
		created_at: new Date().toISOString(),
		list_id: env.listA,
		company: { name: 'Acme' },
	});
	expect(await postSigned(body, id)).toBe(200);
	expect(host.startedExecutions()).toBe(0);
});

it('gives a delivered job change its change key', async () => {
	const [event] = (
		await env.sandbox.admin.emitEvents({ type: 'job_change', list_id: env.listA, count: 1 })
	).events as WebhookEvent[];
	const [item] = await waitFor('the execution', async () => host.executions()[0]);
	expect(item.json.change_key).toBe(changeKeyOf(event));
	expect(item.json.change_key).toMatch(/^[0-9a-f]{32}$/);
});
