/**
 * The rate windows a long-running process keeps: one per base URL, key and rate-limit class, held
 * in module state. Each test loads the module afresh, as a new process would.
 */
import type { INode } from 'n8n-workflow';

import { RATE_LIMIT_WINDOW_MS } from '../../../../../nodes/ContactData/shared/client/contract';
import type * as Pacing from '../../../../../nodes/ContactData/shared/client/pacing';
import { loadAfresh } from '../../../../support/modules.cjs';

const context = { getNode: () => ({ name: 'Contact Data' }) as INode };

function freshPacing(): typeof Pacing {
	return loadAfresh<typeof Pacing>('nodes/ContactData/shared/client/pacing');
}

it('keeps at most MAX_RATE_WINDOWS windows, dropping the least recently used', () => {
	const { rateWindowOf, MAX_RATE_WINDOWS: BOUND } = freshPacing();
	const kept = rateWindowOf('kept');
	const fillers = Array.from({ length: BOUND - 1 }, (_, index) => rateWindowOf(`filler ${index}`));
	// At the bound nothing is dropped; using "kept" makes "filler 0" the least recently used.
	expect(rateWindowOf('kept')).toBe(kept);
	rateWindowOf('one more');
	expect(rateWindowOf('filler 1')).toBe(fillers[1]);
	expect(rateWindowOf('kept')).toBe(kept);
	expect(rateWindowOf('filler 0')).not.toBe(fillers[0]);
});

it('never drops a window with a call in flight, and drops it a minute after the call is over', async () => {
	const { inTurn, rateWindowOf, MAX_RATE_WINDOWS: BOUND } = freshPacing();
	const busy = rateWindowOf('busy');
	let answer = () => {};
	const answered = new Promise<void>((resolve) => (answer = resolve));
	const call = inTurn(context, busy, 0, async () => await answered);
	for (let index = 0; index < 2 * BOUND; index++) rateWindowOf(`other ${index}`);
	expect(rateWindowOf('busy')).toBe(busy);

	answer();
	await call;
	const now = Date.now();
	jest.spyOn(Date, 'now').mockReturnValue(now + RATE_LIMIT_WINDOW_MS);
	for (let index = 0; index < BOUND; index++) rateWindowOf(`later ${index}`);
	expect(rateWindowOf('busy')).not.toBe(busy);
});

it('keeps the window of a call between its attempts, while it backs off before sending again', async () => {
	const { inTurn, rateWindowOf, MAX_RATE_WINDOWS: BOUND } = freshPacing();
	const retrying = rateWindowOf('retrying');
	// The first attempt got a 5xx; the transport backs off (no call in turn) before the next one.
	await inTurn(context, retrying, 0, async () => 'unanswered');
	for (let index = 0; index < 2 * BOUND; index++) rateWindowOf(`other ${index}`);
	expect(rateWindowOf('retrying')).toBe(retrying);
});

afterEach(() => jest.restoreAllMocks());
