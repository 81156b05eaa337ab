/**
 * The Contact Data Poll Trigger run through n8n-core's PollContext against the sandbox: baseline,
 * detection of the sandbox's own job and role changes, exactly once, across restarts and both of
 * n8n's persistence rules.
 */
import { changeKeyOf } from '../../../../nodes/ContactData/shared/items/eventItem';
import type { WebhookEvent } from '../../../../nodes/ContactData/shared/client/contract';
import { PATHS } from '../../../../nodes/ContactData/shared/client/contract';
import { api } from '../../../harness/api';
import { startTestSandbox, type TestSandbox } from '../../../harness/sandbox';
import { changeOf, listById, makePollHost, pollParameters, sandboxEvents } from './setup';

let sandbox: TestSandbox;
let list: { id: string; contactIds: string[] };

beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 5_000 });
});
afterAll(async () => {
	await sandbox.close();
});
beforeEach(async () => {
	await sandbox.admin.reset();
	list = await listById(sandbox, 'Champions', 'vp', 40);
});

function expectSameChanges(
	items: Array<{ json: Record<string, unknown> }>,
	events: WebhookEvent[],
) {
	expect(items.map((item) => changeOf(item.json))).toEqual(
		events.map((event) => changeOf(event as unknown as Record<string, unknown>)),
	);
}

describe('a watched list', () => {
	it('records a baseline silently at the first poll, then emits nothing while nothing changes', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]));
		expect(await host.activate()).toBeNull();
		expect(host.saved).toHaveProperty(['node:Poll Trigger', 'baselines', list.id]);
		expect(await host.tick()).toBeNull();
		expect(host.executions).toEqual([]);
	});

	it('emits a sandbox job change once, with the same type, contact and changes as its event', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]));
		await host.activate();
		const events = await sandboxEvents(sandbox, 'job_change', list.id);
		const result = await host.tick();
		expect(result).not.toBeNull();
		expectSameChanges(result![0], events);
		expect(result![0][0].json.change_key).toBe(changeKeyOf(events[0]));
		expect(await host.tick()).toBeNull();
	});

	it('emits sandbox role changes exactly (same contact, previous and current)', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]));
		await host.activate();
		const events = await sandboxEvents(sandbox, 'role_change', list.id, 3);
		const result = await host.tick();
		expectSameChanges(result![0], events);
		expect(await host.tick()).toBeNull();
	});

	it('emits only the chosen event types', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id], ['role_change']));
		await host.activate();
		await sandboxEvents(sandbox, 'job_change', list.id);
		const roles = await sandboxEvents(sandbox, 'role_change', list.id);
		expectSameChanges((await host.tick())![0], roles);
	});

	it('does not count members joining or leaving as changes', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]));
		await host.activate();
		const other = await api<{ results: Array<{ id: string }> }>(sandbox, 'POST', PATHS.search, {
			filters: { seniority: ['director'] },
			limit: 5,
		});
		await api(sandbox, 'POST', PATHS.listContacts(list.id), {
			ids: other.body.results.map((contact) => contact.id),
		});
		await api(sandbox, 'DELETE', PATHS.listContacts(list.id), { ids: list.contactIds.slice(0, 5) });
		expect(await host.tick()).toBeNull();
	});

	it('gives Simplify the webhook trigger’s simplified fields', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id], ['job_change'], true));
		await host.activate();
		const [event] = await sandboxEvents(sandbox, 'job_change', list.id);
		const [item] = (await host.tick())![0];
		expect(item.json).toMatchObject({
			event_type: 'job_change',
			list_id: list.id,
			contact_id: event.contact.id,
			previous_title: event.changes!.previous.title,
			previous_company: event.changes!.previous.company.name,
			current_title: event.changes!.current.title,
			current_company: event.changes!.current.company.name,
			change_key: changeKeyOf(event),
		});
	});
});

describe('state across restarts and n8n’s persistence rules', () => {
	it('emits a change made while the workflow was inactive at the first poll after activation, once', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]));
		await host.activate();
		host.deactivate();
		const events = await sandboxEvents(sandbox, 'job_change', list.id);
		const result = await host.activate();
		expectSameChanges(result![0], events);
		host.deactivate();
		expect(await host.activate()).toBeNull();
	});

	it('loses no change and emits none twice when silent polls are thrown away (durable scheduler)', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]), 'durable');
		await host.activate();
		expect(await host.tick()).toBeNull();
		const events = await sandboxEvents(sandbox, 'role_change', list.id);
		expectSameChanges((await host.tick())![0], events);
		expect(await host.tick()).toBeNull();
		expect(await host.tick()).toBeNull();
		expect(host.executions).toHaveLength(1);
	});

	it('emits a change once even after a silent poll whose state was only in memory is lost (restart)', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]));
		await host.activate();
		await sandboxEvents(sandbox, 'job_change', list.id);
		expect(await host.tick()).not.toBeNull();
		expect(await host.tick()).toBeNull();
		host.deactivate();
		expect(await host.activate()).toBeNull();
		expect(host.executions).toHaveLength(1);
	});

	it('overlapping polls emit a change once', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]));
		await host.activate();
		await sandboxEvents(sandbox, 'job_change', list.id, 2);
		const results = await host.overlappingTicks();
		expect(results.filter((result) => result !== null)).toHaveLength(1);
		expect(await host.tick()).toBeNull();
		expect(host.executions.flat()).toHaveLength(2);
	});

	it('a manual run returns the pending change without moving the baseline; the next poll still emits it', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]));
		await host.activate();
		const savedBefore = JSON.stringify(host.saved);
		const events = await sandboxEvents(sandbox, 'job_change', list.id);
		expectSameChanges((await host.manual())![0], events);
		expect(JSON.stringify(host.saved)).toBe(savedBefore);
		expectSameChanges((await host.tick())![0], events);
	});

	it('a manual run with nothing pending returns a real member of the list as a sample', async () => {
		const host = makePollHost(sandbox, pollParameters([list.id]));
		const [[sample]] = (await host.manual())!;
		expect(list.contactIds).toContain((sample.json.contact as { id: string }).id);
		expect(sample.json).toMatchObject({ type: 'job_change', list_id: list.id });
		expect(host.saved).toEqual({});
	});

	it('keeps the state per member small', async () => {
		const large = await api<{ id: string; contact_count: number }>(sandbox, 'POST', PATHS.lists, {
			name: 'Managers',
			filters: { seniority: ['manager'] },
		});
		const host = makePollHost(sandbox, pollParameters([large.body.id]));
		await host.activate();
		expect(large.body.contact_count).toBeGreaterThan(500);
		expect(host.savedBytes() / large.body.contact_count).toBeLessThanOrEqual(64);
	});
});
