/** What the trigger shows on the canvas and while it listens for a test event, and the command it names. */
import {
	Workflow,
	sleep,
	type INode,
	type INodeParameters,
	type TriggerPanelDefinition,
} from 'n8n-workflow';

import { PATHS } from '../../../../nodes/ContactData/shared/client/contract';
import { ContactDataTrigger } from '../../../../nodes/ContactData/ContactDataTrigger.node';
import { MapNodeTypes } from '../../../harness/engine';
import { api } from '../../../harness/api';
import { startTestSandbox, type TestSandbox } from '../../../harness/sandbox';
import { readRepoFile, readRepoJson } from '../../../support/files.cjs';
import { runRepoScript } from '../../../support/scripts.cjs';

/** The canvas subtitle as the editor computes it: n8n's expression over the node's parameters. */
function subtitle(parameters: INodeParameters): unknown {
	const trigger = new ContactDataTrigger();
	const node: INode = {
		id: 'trigger',
		name: 'Contact Data Trigger',
		type: 'test.contactDataTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new MapNodeTypes({ 'test.contactDataTrigger': trigger }),
	});
	return workflow.expression.getSimpleParameterValue(
		node,
		trigger.description.subtitle!,
		'internal',
		{},
	);
}

it('the canvas subtitle reads as the events’ names in Title Case, not event type identifiers', () => {
	expect(subtitle({ events: ['job_change'] })).toBe('On Job Change');
	expect(subtitle({})).toBe('On Job Change');
	expect(subtitle({ events: ['job_change', 'role_change', 'intent'] })).toBe(
		'On Job Change, Role Change, Intent',
	);
});

it('the test-listen panel says what makes an event happen in production, without repository commands', () => {
	const panel = new ContactDataTrigger().description.triggerPanel as TriggerPanelDefinition;
	const help = panel.executionsHelp as { inactive: string; active: string };
	expect(panel.header).not.toMatch(/create an event/i);
	for (const text of [help.inactive, help.active, String(panel.activationHint)])
		expect(text).not.toMatch(/npm |sandbox/i);
	expect(help.inactive).toMatch(/change job/i);
	// The sandbox command stays in the docs and the playground.
	expect(readRepoFile('docs/trigger.md')).toMatch(/npm run sandbox:event/);
	const scripts = readRepoJson<{ scripts: Record<string, string> }>('package.json').scripts;
	expect(scripts['sandbox:event']).toBe('node scripts/sandbox-event.mjs');
});

describe('npm run sandbox:event', () => {
	let sandbox: TestSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox({ contacts: 2_000 });
	});
	afterAll(async () => sandbox?.close());

	const fire = async (...args: string[]) =>
		await runRepoScript('scripts/sandbox-event.mjs', args, { SANDBOX_URL: sandbox.url });

	it('makes one event happen on a saved list (creating one when there is none) and delivers it to subscribers', async () => {
		const subscribed = await api(sandbox, 'POST', PATHS.webhooks, {
			url: 'http://127.0.0.1:9/hook',
			events: ['job_change', 'role_change'],
		});
		expect(subscribed.status).toBe(201);
		const first = await fire();
		expect(first.stdout).toMatch(/^job_change evt_\S+ on list ls_\S+: .+ -> .+/);
		const lists = await api<{ lists: Array<{ id: string }> }>(sandbox, 'GET', PATHS.lists);
		expect(lists.body.lists).toHaveLength(1);

		const second = await fire('role_change');
		expect(second.stdout).toMatch(
			new RegExp(`^role_change evt_\\S+ on list ${lists.body.lists[0].id}:`),
		);
		const eventIds = [first.stdout, second.stdout].map((out) => /evt_\S+/.exec(out)![0]);
		// Delivery is asynchronous: the sandbox's log shows an attempt for each event soon after.
		let delivered: string[] = [];
		for (
			let attempt = 0;
			attempt < 100 && !eventIds.every((id) => delivered.includes(id));
			attempt++
		) {
			await sleep(100);
			delivered = (await sandbox.admin.deliveries()).map((delivery) => delivery.event_id);
		}
		expect(delivered).toEqual(expect.arrayContaining(eventIds));
	});

	it('says what to do when no sandbox answers', async () => {
		await expect(
			runRepoScript('scripts/sandbox-event.mjs', [], { SANDBOX_URL: 'http://127.0.0.1:9' }),
		).rejects.toMatchObject({ stderr: expect.stringMatching(/does not answer .*npm start/) });
	});
});
