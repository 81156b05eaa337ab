/** The sandbox's "rewrite" fault: an answer the contract rules out, the real one kept for replays. */
import { PATHS } from '../../nodes/ContactData/shared/client/contract';
import { firstContactIds, useSandbox, type UnlockAnswer } from './client';

const env = useSandbox({ contacts: 2_000 });

it('sets fields and leaves out an entry; a replay with the same key gets the real answer', async () => {
	const ids = await firstContactIds(env.api, 3);
	await env.sandbox.admin.setFaults([
		{
			route: 'POST /v1/unlock',
			kind: 'rewrite',
			phase: 'after',
			count: 1,
			omit_entry: 1,
			set: { credits_charged: -800 },
		},
	]);
	const headers = { 'idempotency-key': 'rewrite-test' };
	const first = await env.api<UnlockAnswer>('POST', PATHS.unlock, { ids }, { headers });
	expect(first.body.credits_charged).toBe(-800);
	expect(first.body.contacts.map((entry) => entry.id)).toEqual([ids[0], ids[2]]);
	const replay = await env.api<UnlockAnswer>('POST', PATHS.unlock, { ids }, { headers });
	expect(replay.body.credits_charged).toBe(3);
	expect(replay.body.contacts.map((entry) => entry.id)).toEqual(ids);
});

it('a rewrite rule needs phase "after"', async () => {
	await expect(
		env.sandbox.admin.setFaults([{ route: 'POST /v1/unlock', kind: 'rewrite', set: {} }]),
	).rejects.toThrow(/400/);
});
