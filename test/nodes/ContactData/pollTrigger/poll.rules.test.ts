/**
 * What the poll trigger counts as a change, against the sandbox: the saved baseline is given a
 * title or company as another source might have written it, and the next poll must judge it by
 * the rules of docs/trigger.md.
 */
import type { IDataObject } from 'n8n-workflow';

import { PATHS } from '../../../../nodes/ContactData/shared/client/contract';
import { api } from '../../../harness/api';
import { startTestSandbox, type TestSandbox } from '../../../harness/sandbox';
import type { PollHost } from '../../../harness/poll';
import { listById, makePollHost, pollParameters, sandboxEvents } from './setup';

let sandbox: TestSandbox;
let list: { id: string; contactIds: string[] };
let host: PollHost;

beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 5_000 });
});
afterAll(async () => {
	await sandbox.close();
});
beforeEach(async () => {
	await sandbox.admin.reset();
	list = await listById(sandbox, 'Champions', 'vp', 10);
	host = makePollHost(sandbox, pollParameters([list.id]));
	await host.activate();
});

interface Stored {
	titles: Array<string | null>;
	companies: Array<[string | null, string | null]>;
	ids: string[];
	title: number[];
	company: number[];
}

/** Rewrites the saved baseline of the first member, as if the last poll had seen it so. */
function rewriteFirstMember(
	change: (
		title: string | null,
		company: [string | null, string | null],
	) => { title: string | null; company: [string | null, string | null] },
): void {
	const stored = ((host.saved['node:Poll Trigger'] as IDataObject).baselines as IDataObject)[
		list.id
	] as unknown as Stored;
	const next = change(stored.titles[stored.title[0]], stored.companies[stored.company[0]]);
	stored.titles.push(next.title);
	stored.title[0] = stored.titles.length - 1;
	stored.companies.push(next.company);
	stored.company[0] = stored.companies.length - 1;
	host.deactivate();
}

const shout = (value: string) => `  ${value.toUpperCase().replace(/ /g, ' ,  ')}. `;

describe('change rules', () => {
	it('a title differing only in case, spaces or punctuation is not a role change', async () => {
		rewriteFirstMember((title, company) => ({ title: shout(title!), company }));
		expect(await host.activate()).toBeNull();
	});

	it('a company domain differing only in case or "www." is the same company', async () => {
		rewriteFirstMember((title, [name, domain]) => ({
			title,
			company: [name, `WWW.${domain!.toUpperCase()}`],
		}));
		expect(await host.activate()).toBeNull();
	});

	it('a title or company appearing is not a change', async () => {
		rewriteFirstMember(() => ({ title: null, company: [null, null] }));
		expect(await host.activate()).toBeNull();
	});

	it('without a domain, companies are compared by name', async () => {
		rewriteFirstMember((title, [name]) => ({ title, company: [shout(name!), null] }));
		expect(await host.activate()).toBeNull();
		rewriteFirstMember((title) => ({ title, company: ['Another Company', null] }));
		const [[item]] = (await host.activate())!;
		expect(item.json).toMatchObject({
			type: 'job_change',
			changes: { previous: { company: { name: 'Another Company', domain: null } } },
		});
	});

	it('another title at the same company is a role change naming the title as it was', async () => {
		rewriteFirstMember((_title, company) => ({ title: 'Chief Tea Officer', company }));
		const [[item]] = (await host.activate())!;
		expect(item.json).toMatchObject({
			type: 'role_change',
			changes: { previous: { title: 'Chief Tea Officer' } },
		});
	});

	it('a member promoted out of a filter-based list cannot be seen by a poll (documented)', async () => {
		const filtered = await api<{ id: string }>(sandbox, 'POST', PATHS.lists, {
			name: 'Directors',
			filters: { seniority: ['director'] },
		});
		const watching = makePollHost(sandbox, pollParameters([filtered.body.id]));
		await watching.activate();
		const [event] = await sandboxEvents(sandbox, 'role_change', filtered.body.id);
		expect(event.contact.seniority).not.toBe('director');
		expect(await watching.tick()).toBeNull();
	});
});
