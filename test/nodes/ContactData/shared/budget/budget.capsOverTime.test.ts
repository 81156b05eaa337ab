/**
 * Max Credits per Day in the engine (issue 30): a replay counted once across runs. n8n's Retry On
 * Fail runs the node again in the same execution with the same Idempotency-Keys, and the API
 * replays the first answers free; the day's tally must not count those charges twice.
 */
import {
	HEADERS,
	type ContactPreview,
} from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import { json, startFakeApi, type FakeApi } from '../../../../support/fakeApi.cjs';
import {
	contacts,
	hints,
	idItems,
	idsFrom,
	keyStats,
	run,
	unlockParameters,
	type TestSandbox,
} from '../../setup';

let sandbox: TestSandbox;
let pool: ContactPreview[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 5_000 });
	pool = await contacts(sandbox, 400);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());
afterEach(async () => sandbox.admin.clearFaults());

/** Each test its own node: the day's tally is counted per node, in this process. */
const nodeId = () => `node-${expect.getState().currentTestName}`;

describe('a replay counted once across runs', () => {
	it('Retry On Fail replays a 150-credit run free: the day counts 150, and the next run may spend the other 150', async () => {
		// Two calls (100 + 50 ids); each answer and its replay at the end of the run are lost after
		// the API charged: the run fails, and n8n's Retry On Fail runs it again with the same keys.
		await sandbox.admin.setFaults([
			{ route: 'POST /v1/unlock', kind: 'slow', delay_ms: 2_000, phase: 'after', count: 4 },
		]);
		const options = { maxCredits: 150, options: { maxCreditsPerDay: 300 } };
		const first = await run(sandbox, {
			parameters: unlockParameters(options),
			inputItems: idItems(idsFrom(pool, 150)),
			retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
			timeoutSeconds: 1,
			nodeId: nodeId(),
		});
		expect(first.error).toBeUndefined();
		expect((await keyStats(sandbox)).idempotent_replays).toBe(4);
		expect((await keyStats(sandbox)).credits_charged).toBe(150);

		// The day used 150: a run of 150 more fits Stop Before Spending.
		const second = await run(sandbox, {
			parameters: unlockParameters(options),
			inputItems: idItems(idsFrom(pool, 150, 150)),
			nodeId: nodeId(),
		});
		expect(second.error?.message).toBeUndefined();
		expect((await keyStats(sandbox)).credits_charged).toBe(300);

		// And the day is then spent, exactly.
		const third = await run(sandbox, {
			parameters: unlockParameters(options),
			inputItems: idItems(idsFrom(pool, 1, 300)),
			nodeId: nodeId(),
		});
		expect(third.error?.description).toMatch(/already used 300 of the 300/);
		expect((await keyStats(sandbox)).credits_charged).toBe(300);
	});
});

describe('answers the ledger can check (a fake API)', () => {
	let fake: FakeApi | undefined;
	afterEach(async () => fake?.close());

	it('Retry On Fail: a replay whose charge differs from the first answer’s is noted and counts nothing', async () => {
		const answers = new Map<string, number>();
		let refusals = 0;
		fake = await startFakeApi((request, res, req) => {
			const key = String(req.headers[HEADERS.idempotencyKey]);
			const ids = (request.body as { ids: string[] }).ids;
			// The second call is refused once: the run fails, and Retry On Fail runs it again.
			if (ids.length === 50 && refusals++ === 0)
				return json(res, 400, { error: { code: 'invalid_request', message: 'Try again' } });
			const seen = answers.has(key);
			answers.set(key, ids.length);
			json(
				res,
				200,
				{ contacts: ids.map(contactOf), credits_charged: seen ? 40 : ids.length },
				seen ? { [HEADERS.idempotentReplayed]: 'true' } : {},
			);
		});
		const result = await run(sandbox, {
			parameters: unlockParameters({ maxCredits: 150, options: { maxCreditsPerDay: 1000 } }),
			inputItems: idItems(Array.from({ length: 150 }, (_, at) => `ct_${at}`)),
			retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
			baseUrl: fake.url,
			nodeId: nodeId(),
		});
		expect(result.error).toBeUndefined();
		expect(hints(result)[0]).toMatch(/impossible charge \(credits_charged: 40\) for 1 call/);
		// The run's two charges across its tries, 100 and 50: the replay's 40 counts nothing.
		expect(result.items[0].json.credits_charged_in_run).toBe(150);
	});
});

const contactOf = (id: string) => ({
	id,
	first_name: 'Ada',
	unlocked: true,
	level: 'basic',
	email: null,
	unlocked_at: '2026-11-25T00:00:00Z',
});

describe('Max Credits per Day under parallel runs', () => {
	it('three runs of the node at once (What Fits, 10 contacts each, Max Credits 10) under a day cap of 25 charge 25', async () => {
		const parameters = unlockParameters({
			maxCredits: 10,
			whenMaxCreditsReached: 'whatFits',
			options: { maxCreditsPerDay: 25 },
		});
		const runs = await Promise.all(
			[0, 1, 2].map(
				async (at) =>
					await run(sandbox, {
						parameters,
						inputItems: idItems(idsFrom(pool, 10, 320 + at * 10)),
						nodeId: nodeId(),
					}),
			),
		);
		expect(runs.map((result) => result.error)).toEqual([undefined, undefined, undefined]);
		const unlocked = runs.flatMap((result) =>
			result.items.filter((item) => typeof item.json.unlocked_at === 'string'),
		);
		expect(unlocked).toHaveLength(25);
		expect((await keyStats(sandbox)).credits_charged).toBe(25);
	});
});
