/**
 * Max Credits when two faults stack (issue 30): a call's answer is lost after the API charged it,
 * then its retry is refused (429 until the node gives up, or nothing listening any more). A refusal
 * of a later attempt says nothing about the earlier one, so the call stays counted. And a refusal
 * mid-run (402) tells what the run's earlier calls charged instead of "nothing was charged".
 */
import { startTestSandbox } from '../../../../harness/sandbox';
import {
	json,
	startFakeApi,
	type FakeApi,
	type IncomingMessage,
} from '../../../../support/fakeApi.cjs';
import {
	enrichParameters,
	hints,
	run,
	type TestSandbox,
	unlockParameters,
	WHAT_FITS,
} from '../../setup';

jest.setTimeout(120_000);

// The harness needs a sandbox for its credential; the calls here go to the fake API.
let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 10 });
});
afterAll(async () => sandbox?.close());

let fake: FakeApi | undefined;
afterEach(async () => {
	await fake?.close();
	fake = undefined;
});

const ids = (count: number, from = 0) =>
	Array.from({ length: count }, (_, index) => `ct_${String(from + index).padStart(6, '0')}`);
const idItems = (list: string[]) => list.map((id) => ({ json: { id } }));
const keyOf = (req: IncomingMessage) => String(req.headers['idempotency-key'] ?? '');

/** An unlock API that charges 1 credit per id and replays a key's first answer free, as the contract says. */
function unlockApi(balance = 10_000) {
	const answers = new Map<string, object>();
	const state = { charged: 0, balance, calls: 0 };
	const answer = (key: string, body: { ids: string[] }) => {
		const first = answers.get(key);
		if (first) return { body: first, replayed: true };
		if (body.ids.length > state.balance) return undefined;
		state.charged += body.ids.length;
		state.balance -= body.ids.length;
		const contacts = body.ids.map((id) => ({ id, unlocked: true, level: 'basic', name: id }));
		const fresh = {
			contacts,
			credits_charged: body.ids.length,
			credits_remaining: state.balance,
		};
		answers.set(key, fresh);
		return { body: fresh, replayed: false };
	};
	return { state, answer };
}

/** Unlock of 200 ids from the fake API: Max Credits 100 and Unlock What Fits unless told otherwise. */
const unlock200 = (parameters: Record<string, unknown>, continueOnFail: boolean) =>
	run(sandbox, {
		parameters: unlockParameters(parameters),
		inputItems: idItems(ids(200)),
		continueOnFail,
		baseUrl: fake!.url,
	});
const WITHIN_100 = { maxCredits: 100, ...WHAT_FITS };

const insufficient = {
	error: {
		code: 'insufficient_credits',
		message: 'Not enough credits',
		details: { required: 100, balance: 50 },
	},
};
const rateLimited = (res: Parameters<typeof json>[0]) =>
	json(
		res,
		429,
		{ error: { code: 'rate_limited', message: 'Too many requests' } },
		{
			'retry-after': '0.05',
			'x-ratelimit-limit': '60',
			'x-ratelimit-remaining': '0',
			'x-ratelimit-reset': '0.3',
		},
	);

describe('an answer lost, then its retry refused', () => {
	it('429 until the node gives up: the call stays counted, Max Credits 100 is never passed', async () => {
		const api = unlockApi();
		let lostKey: string | undefined;
		fake = await startFakeApi((request, res, req) => {
			const key = keyOf(req);
			if (lostKey === undefined) {
				lostKey = key;
				api.answer(key, request.body as { ids: string[] });
				return res.socket?.destroy();
			}
			if (key === lostKey) return rateLimited(res);
			const answered = api.answer(key, request.body as { ids: string[] })!;
			json(res, 200, answered.body, answered.replayed ? { 'idempotent-replayed': 'true' } : {});
		});
		const result = await unlock200(WITHIN_100, true);
		// Before the fix: 200 charged, the item errors said "was refused, so nothing was charged".
		expect(api.state.charged).toBeLessThanOrEqual(100);
		expect(result.items).toHaveLength(200);
		const errors = result.items.filter((item) => item.json.error !== undefined);
		expect(errors).toHaveLength(100);
		for (const item of errors) {
			expect(item.json.error).not.toMatch(/nothing was charged/i);
			expect(item.json.error).toMatch(/may have charged/);
			expect(`${item.json.error} ${item.json.description}`).toMatch(/free/);
		}
		// The notice never claims the lost call's credits as charged, and names them held back.
		expect(hints(result)[0]).toMatch(/0 credits charged of a 100 budget, and 100 held back/);
	});

	it('nothing listens any more (ECONNREFUSED): the call stays counted and its message says so', async () => {
		const api = unlockApi();
		fake = await startFakeApi((request, _res, req) => {
			api.answer(keyOf(req), request.body as { ids: string[] });
			// The request was read and charged; the server goes away before answering.
			void fake!.close();
		});
		const result = await unlock200(WITHIN_100, true);
		expect(api.state.charged).toBe(100);
		expect(fake.requests).toHaveLength(1);
		const errors = result.items.filter((item) => item.json.error !== undefined);
		expect(errors.length).toBeGreaterThanOrEqual(100);
		for (const item of errors) {
			expect(`${item.json.error} ${item.json.description}`).not.toMatch(/nothing was charged/i);
		}
		expect(errors[0].json.error).toMatch(/may have charged up to 100 credits/);
		expect(hints(result)[0]).not.toMatch(/100 credits charged/);
	});

	it('a refusal of a call’s only attempt still gives its room back', async () => {
		const api = unlockApi();
		let first = true;
		fake = await startFakeApi((request, res, req) => {
			if (first) {
				first = false;
				return json(res, 400, { error: { code: 'invalid_request', message: 'Bad ids' } });
			}
			const answered = api.answer(keyOf(req), request.body as { ids: string[] })!;
			json(res, 200, answered.body);
		});
		const result = await unlock200(WITHIN_100, true);
		expect(api.state.charged).toBe(100);
		expect(result.items.filter((item) => item.json.error === undefined)).toHaveLength(100);
	});
});

describe('a refusal mid-run (402) after earlier calls were charged', () => {
	/** Balance 150: the first call of 100 is charged, the second refused with 402. */
	const refusingApi = () => {
		const api = unlockApi(150);
		let calls = 0;
		return {
			api,
			answer: (request: FakeApi['requests'][number], res: Parameters<typeof json>[0]) => {
				const answered = api.answer(String(calls++), request.body as { ids: string[] });
				if (!answered) return json(res, 402, insufficient);
				json(res, 200, answered.body);
			},
		};
	};

	it('without Continue On Fail: the error says what the run charged, that a rerun returns it free, "[item N]" once', async () => {
		const { api, answer } = refusingApi();
		fake = await startFakeApi(answer);
		const result = await unlock200({ maxCredits: 1_000 }, false);
		expect(api.state.charged).toBe(100);
		const error = result.error!;
		const text = `${error.message} ${error.description}`;
		expect(text).not.toMatch(/nothing was charged/i);
		expect(text).toMatch(/100 credits/);
		expect(text).toMatch(/free/);
		expect((error.message ?? '').match(/\[item \d+\]/g) ?? []).toHaveLength(1);
	});

	it('with Continue On Fail: the 100 paid contacts are output, the notice counts them', async () => {
		const { api, answer } = refusingApi();
		fake = await startFakeApi(answer);
		const result = await unlock200({ maxCredits: 1_000 }, true);
		expect(api.state.charged).toBe(100);
		const records = result.items.filter((item) => item.json.error === undefined);
		expect(records).toHaveLength(100);
		const errors = result.items.filter((item) => item.json.error !== undefined);
		expect(errors).toHaveLength(100);
		for (const item of errors) {
			expect(`${item.json.error} ${item.json.description}`).not.toMatch(/nothing was charged/i);
			// An error item names its item by pairedItem; never twice in its text.
			expect((String(item.json.error).match(/\[item \d+\]/g) ?? []).length).toBeLessThanOrEqual(1);
		}
		expect(hints(result)[0]).toMatch(/100 credits charged/);
	});

	it('Enrich: the third lookup refused (402) after two were charged says what was charged', async () => {
		let count = 0;
		fake = await startFakeApi((request, res) => {
			count++;
			if (count > 2) return json(res, 402, insufficient);
			const email = (request.body as { email: string }).email;
			json(res, 200, {
				contact: { id: `ct_${count}`, email, unlocked: true, level: 'basic' },
				credits_charged: 1,
				credits_remaining: 2 - count,
			});
		});
		const result = await run(sandbox, {
			parameters: enrichParameters({ maxCredits: 10 }),
			inputItems: ['a', 'b', 'c'].map((name) => ({ json: { email: `${name}@example.com` } })),
			baseUrl: fake.url,
		});
		const error = result.error!;
		const text = `${error.message} ${error.description}`;
		expect(text).not.toMatch(/nothing was charged/i);
		expect(text).toMatch(/2 credits/);
		expect(text).toMatch(/free/);
		expect((error.message ?? '').match(/\[item \d+\]/g) ?? []).toHaveLength(1);
	});
});
