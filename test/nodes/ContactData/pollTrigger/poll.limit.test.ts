/**
 * The largest list the poll trigger accepts: beyond MAX_WATCHED_MEMBERS members it fails with a
 * message naming the limit, emits nothing and saves nothing (never a silent truncation).
 */
import { PATHS } from '../../../../nodes/ContactData/shared/client/contract';
import { MAX_WATCHED_MEMBERS } from '../../../../nodes/ContactData/pollTrigger/poll';
import { api } from '../../../harness/api';
import { startTestSandbox, type TestSandbox } from '../../../harness/sandbox';
import { makePollHost, pollParameters } from './setup';

let sandbox: TestSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: MAX_WATCHED_MEMBERS + 1 });
});
afterAll(async () => {
	await sandbox.close();
});

it('refuses watched lists above the limit with a clear error, saving nothing', async () => {
	const everyone = await api<{ id: string; contact_count: number }>(sandbox, 'POST', PATHS.lists, {
		name: 'Everyone',
		filters: {},
	});
	expect(everyone.body.contact_count).toBe(MAX_WATCHED_MEMBERS + 1);
	const host = makePollHost(sandbox, pollParameters([everyone.body.id]));
	await expect(host.activate()).rejects.toThrow(
		`hold more than ${MAX_WATCHED_MEMBERS.toLocaleString('en-US')} contacts`,
	);
	expect(host.saved).toEqual({});
	expect(host.executions).toEqual([]);
});
