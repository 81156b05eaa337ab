/**
 * A call sent again, by a new run or a new tool call, after its answer was lost (issue 30, from the
 * adversarial review): a refusal of the repeat says nothing of the first send, so its worst case
 * stays held; Retry On Fail replays the lost call instead of spending a new Max Credits; messages
 * never say "not charged" for a call that may have been; version 2 tool answers keep their fields.
 */
import { ContactDataApi } from '../../../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { runAgent } from '../../../../harness/agent';
import { startTestSandbox } from '../../../../harness/sandbox';
import { json, startFakeApi, type FakeApi } from '../../../../support/fakeApi.cjs';
import { enrichParameters, hints, run, type TestSandbox, unlockParameters } from '../../setup';

jest.setTimeout(180_000);

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

/** Counts each Idempotency-Key's sends a fake API receives; `seen` holds the keys in the order first sent. */
function keyedSends() {
	const seen = new Map<string, number>();
	const count = (req: { headers: Record<string, string | string[] | undefined> }) => {
		const key = String(req.headers['idempotency-key']);
		const sends = (seen.get(key) ?? 0) + 1;
		seen.set(key, sends);
		return { key, sends };
	};
	return { seen, count };
}
const credential = () => ({ contactDataApi: { apiKey: 'cd_test_x', baseUrl: fake!.url } });

/**
 * An honest unlock API (a key's first answer replayed, a contact unlocked once is free) whose first
 * call is charged and its answer lost; later sends of that key meet `afterLost` (429s, or lost again).
 */
async function lostFirstCall(afterLost: '429' | 'lost') {
	const unlocked = new Set<string>();
	const answers = new Map<string, object>();
	const state = { charged: 0, lostKey: undefined as string | undefined };
	fake = await startFakeApi((request, res, req) => {
		const key = String(req.headers['idempotency-key']);
		const body = request.body as { ids: string[] };
		const fresh = body.ids.filter((id) => !unlocked.has(id));
		if (state.lostKey === undefined) {
			state.lostKey = key;
			fresh.forEach((id) => unlocked.add(id));
			state.charged += fresh.length;
			return res.socket?.destroy();
		}
		if (key === state.lostKey && afterLost === 'lost') return res.socket?.destroy();
		if (key === state.lostKey)
			return json(
				res,
				429,
				{ error: { code: 'rate_limited', message: 'Too many requests' } },
				{ 'retry-after': '0.05', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0.3' },
			);
		if (!answers.has(key)) {
			fresh.forEach((id) => unlocked.add(id));
			state.charged += fresh.length;
			const contacts = body.ids.map((id) => ({ id, unlocked: true, level: 'basic', name: id }));
			answers.set(key, { contacts, credits_charged: fresh.length, credits_remaining: 5_000 });
		}
		json(res, 200, answers.get(key));
	});
	return state;
}

describe('a held key sent again and refused', () => {
	it('an agent repeats a lost call, the repeat meets 429s: Max Credits 100 holds', async () => {
		const api = await lostFirstCall('429');
		const { toolCalls } = await runAgent({
			toolType: new ContactData(),
			toolParameters: {
				...unlockParameters({ maxCredits: 100, whenMaxCreditsReached: 'whatFits' }),
				contactIds: '={{ $json.ids }}',
			},
			rounds: [[{ ids: ids(100) }], [{ ids: ids(100) }], [{ ids: ids(100, 500) }]],
			credentialTypes: [new ContactDataApi()],
			credentials: credential(),
		});
		// Before: the repeat freed the held 100 ("was refused, so this call was not charged"), 200 paid.
		expect(api.charged).toBeLessThanOrEqual(100);
		// A tool's failure is its answer: the repeat's says it may have charged, never "not charged".
		const repeat = String(toolCalls[1].items[0]?.json.error ?? toolCalls[1].error?.message);
		expect(repeat).toMatch(/may have charged/);
		expect(repeat).not.toMatch(/not charged/);
	});

	it('Retry On Fail, then a later run today: Max Credits per Day 200 holds', async () => {
		const api = await lostFirstCall('429');
		const perDay = { options: { maxCreditsPerDay: 200 } };
		await run(sandbox, {
			parameters: unlockParameters({ maxCredits: 100, ...perDay }),
			inputItems: idItems(ids(100)),
			retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
			baseUrl: fake!.url,
			nodeId: 'held-key-day',
		});
		await run(sandbox, {
			parameters: unlockParameters({
				maxCredits: 200,
				whenMaxCreditsReached: 'whatFits',
				...perDay,
			}),
			inputItems: idItems(ids(200, 1_000)),
			baseUrl: fake!.url,
			nodeId: 'held-key-day',
		});
		expect(api.charged).toBeLessThanOrEqual(200);
	});
});

it('Retry On Fail replays the lost call: one execution stays within Max Credits 100', async () => {
	const api = await lostFirstCall('lost');
	const result = await run(sandbox, {
		parameters: unlockParameters({
			maxCredits: 100,
			whenMaxCreditsReached: 'whatFits',
			options: { maxCreditsPerDay: 150 },
		}),
		inputItems: idItems(ids(200)),
		retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
		baseUrl: fake!.url,
		nodeId: 'retry-sizing',
	});
	// Before: the second try sized its calls to the day's 50 left, never replayed, and paid 150.
	expect(api.charged).toBeLessThanOrEqual(100);
	expect(hints(result)[0] ?? '').not.toMatch(/50 credits charged/);
});

describe('a replay refused after lost answers never says "not charged"', () => {
	it('Enrich, the replay answered 404', async () => {
		let count = 0;
		fake = await startFakeApi((_request, res) => {
			// The first send (5 attempts) is read, its answers lost; the replay meets a 404.
			if (++count <= 5) res.socket?.destroy();
			else json(res, 404, { error: { code: 'not_found', message: 'No contact matches' } });
		});
		const result = await run(sandbox, {
			parameters: enrichParameters({ maxCredits: 10 }),
			inputItems: [{ json: { email: 'a@example.com' } }],
			continueOnFail: true,
			baseUrl: fake.url,
		});
		const item = result.items[0].json;
		expect(hints(result)[0]).toMatch(/1 held back for answers that were lost/);
		expect(`${item.error} ${item.description}`).not.toMatch(/not charged/);
		expect(item.error).toMatch(/may have charged/);
	});

	it('Unlock, the replay refused 402', async () => {
		let count = 0;
		fake = await startFakeApi((_request, res) => {
			if (++count <= 5) res.socket?.destroy();
			else
				json(res, 402, {
					error: {
						code: 'insufficient_credits',
						message: 'Not enough credits',
						details: { required: 3, balance: 0 },
					},
				});
		});
		const result = await run(sandbox, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(ids(3)),
			continueOnFail: true,
			baseUrl: fake.url,
		});
		const item = result.items[0].json;
		expect(item.error).toMatch(/may have charged/);
		expect(`${item.error} ${item.description}`).not.toMatch(/not charged/);
	});
});

it('a version 2 tool answer keeps its credit fields (what is held is said from 2.1 on)', async () => {
	fake = await startFakeApi((request, res) => {
		const body = request.body as { ids: string[] };
		json(res, 200, {
			contacts: body.ids.map((id) => ({ id, unlocked: true, level: 'basic', name: id })),
			credits_charged: body.ids.length,
			credits_remaining: 100,
		});
	});
	const answerFields = async (typeVersion: number) => {
		const { toolCalls } = await runAgent({
			toolType: new ContactData(),
			typeVersion,
			toolParameters: {
				resource: 'contact',
				operation: 'unlock',
				contactIds: '={{ $json.ids }}',
				maxCredits: 10,
				options: { maxCreditsPerDay: 50 },
			},
			rounds: [[{ ids: ['ct_000001'] }]],
			credentialTypes: [new ContactDataApi()],
			credentials: credential(),
		});
		return Object.keys(toolCalls[0].items[0].json.credits as object);
	};
	const version2 = ['spent_by_this_call', 'spent_in_run', 'max_credits', 'left', 'replayed'];
	expect(await answerFields(2)).toEqual([...version2, 'left_today']);
	expect(await answerFields(2.1)).toEqual([...version2, 'left_today', 'held_today']);
});

it('a run stopped by a refusal while a lost call waits: Retry On Fail takes that call over', async () => {
	const unlocked = new Set<string>();
	const { seen, count } = keyedSends();
	const api = { charged: 0 };
	fake = await startFakeApi((request, res, req) => {
		const { sends } = count(req);
		const body = request.body as { ids: string[] };
		const fresh = body.ids.filter((id) => !unlocked.has(id));
		// The first call is charged and its answer lost; the second is refused once (403).
		if (seen.size === 2 && sends === 1)
			return json(res, 403, { error: { code: 'forbidden', message: 'Not now' } });
		fresh.forEach((id) => unlocked.add(id));
		api.charged += fresh.length;
		// Every attempt of the first send (the transport's five) loses its answer.
		if (seen.size === 1 && sends <= 5) return res.socket?.destroy();
		const contacts = body.ids.map((id) => ({ id, unlocked: true, level: 'basic', name: id }));
		json(res, 200, { contacts, credits_charged: fresh.length, credits_remaining: 5_000 });
	});
	const result = await run(sandbox, {
		parameters: unlockParameters({ maxCredits: 200 }),
		inputItems: idItems(ids(200)),
		retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
		baseUrl: fake.url,
		nodeId: 'retry-takes-over',
	});
	// Before: the second try found the lost call's 100 still reserved and nothing to take over, so
	// Stop Before Spending refused the run.
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(200);
	expect(api.charged).toBe(200);
});

it('Enrich: a run stopped by a refusal while a lost call waits: Retry On Fail takes it over', async () => {
	const { seen, count } = keyedSends();
	const enriched = new Set<string>();
	const api = { charged: 0 };
	fake = await startFakeApi((request, res, req) => {
		const { sends } = count(req);
		const email = (request.body as { email: string }).email;
		// The second lookup is refused once (403).
		if (seen.size === 2 && sends === 1)
			return json(res, 403, { error: { code: 'forbidden', message: 'Not now' } });
		const charge = enriched.has(email) ? 0 : 1;
		enriched.add(email);
		api.charged += charge;
		// Every attempt of the first send (the transport's five) loses its answer.
		if (seen.size === 1 && sends <= 5) return res.socket?.destroy();
		const contact = { id: `ct_${email}`, email, unlocked: true, level: 'basic' };
		json(res, 200, { contact, credits_charged: charge, credits_remaining: 5_000 });
	});
	const result = await run(sandbox, {
		parameters: enrichParameters({ maxCredits: 2 }),
		inputItems: ['a', 'b'].map((name) => ({ json: { email: `${name}@example.com` } })),
		retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
		baseUrl: fake.url,
		nodeId: 'enrich-retry-takes-over',
	});
	// The first try kept nothing of its lost call: its 1 credit stayed reserved with no key to take
	// it over, so Stop Before Spending refused the second try (2 credits against 1 left).
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(2);
	expect(api.charged).toBe(2);
});

it('Enrich: a person asked twice, the first answer lost then replayed: the second is free', async () => {
	const { seen, count } = keyedSends();
	const enriched = new Set<string>();
	const api = { charged: 0 };
	fake = await startFakeApi((request, res, req) => {
		const { sends } = count(req);
		const email = (request.body as { email: string }).email;
		const charge = seen.size === 1 && sends > 1 ? 1 : enriched.has(email) ? 0 : 1;
		if (sends === 1) enriched.add(email);
		if (sends === 1) api.charged += charge;
		// Every attempt of the first send (the transport's five) loses its answer; its replay answers.
		if (seen.size === 1 && sends <= 5) return res.socket?.destroy();
		const contact = { id: 'ct_a', email, unlocked: true, level: 'basic' };
		return json(res, 200, { contact, credits_charged: charge, credits_remaining: 5_000 });
	});
	const result = await run(sandbox, {
		parameters: enrichParameters({ maxCredits: 1 }),
		inputItems: [{ json: { email: 'a@example.com' } }, { json: { email: 'a@example.com' } }],
		baseUrl: fake.url,
	});
	// Stop Before Spending counted the person once (1 of 1); the second lookup was priced before the
	// replay settled the first, so it found no room and the run failed with "1 item not sent".
	expect(result.error).toBeUndefined();
	expect(result.items.map(({ json }) => json.id)).toEqual(['ct_a', 'ct_a']);
	expect(api.charged).toBe(1);
});

it('an agent asks at premium for the ids of a call lost at basic: Stop Before Spending counts them', async () => {
	const held = new Map<string, number>();
	const api = { charged: 0, calls: 0 };
	const lostKey = { value: undefined as string | undefined };
	fake = await startFakeApi((request, res, req) => {
		const key = String(req.headers['idempotency-key']);
		// The first call (basic) is never answered, nor carried out.
		if ((lostKey.value ??= key) === key) return res.socket?.destroy();
		api.calls++;
		const { ids: asked, level } = request.body as { ids: string[]; level: string };
		const rank = level === 'premium' ? 2 : 1;
		let charge = 0;
		for (const id of asked) charge += Math.max(0, rank - (held.get(id) ?? 0));
		for (const id of asked) held.set(id, Math.max(rank, held.get(id) ?? 0));
		api.charged += charge;
		const contacts = asked.map((id) => ({ id, unlocked: true, level, name: id }));
		return json(res, 200, { contacts, credits_charged: charge, credits_remaining: 5_000 });
	});
	const [a, b, c, d, e] = ids(5);
	const { toolCalls } = await runAgent({
		toolType: new ContactData(),
		toolParameters: {
			...unlockParameters({ maxCredits: 10, level: '={{ $json.level }}' }),
			contactIds: '={{ $json.ids }}',
		},
		rounds: [[{ ids: [a, b], level: 'basic' }], [{ ids: [a, b, c, d, e], level: 'premium' }]],
		credentialTypes: [new ContactDataApi()],
		credentials: credential(),
	});
	// The lost basic call holds 2 of the 10. At premium, [a, b] form the lost call's ids but not its
	// key (the level differs): they cost up to 4 more, so the run could cost 10 with 8 left.
	// Before: the forecast left [a, b] out as a lost call taken over (6 of 8), the run sent [a, b]
	// and [c, d], then failed "Max Credits of 10 reached ... 1 contact not sent".
	const second = String(toolCalls[1].items[0]?.json.error ?? toolCalls[1].error?.message);
	expect(second).toMatch(/is not enough/);
	expect(api.calls).toBe(0);
});

it('on the canvas, Stop Before Spending on a later try of Retry On Fail never speaks of tool calls', async () => {
	const unlocked = new Set<string>();
	fake = await startFakeApi((request, res) => {
		const asked = (request.body as { ids: string[] }).ids;
		const fresh = asked.filter((id) => id !== 'ct_b' && !unlocked.has(id));
		fresh.forEach((id) => unlocked.add(id));
		// ct_b is never in the answer: the run fails "did not answer", its worst case held.
		const contacts = asked
			.filter((id) => id !== 'ct_b')
			.map((id) => ({ id, unlocked: true, level: 'basic', name: id }));
		return json(res, 200, { contacts, credits_charged: fresh.length, credits_remaining: 5_000 });
	});
	const result = await run(sandbox, {
		parameters: unlockParameters({ maxCredits: 2 }),
		inputItems: idItems(['ct_a', 'ct_b']),
		retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
		baseUrl: fake.url,
		nodeId: 'retry-words',
	});
	// The second try is refused (ct_b's worst case stays held); what used the budget was the first
	// try, not "Earlier tool calls of this execution".
	expect(result.error?.message).toMatch(/is not enough/);
	expect(result.error?.description).not.toMatch(/tool calls/);
});

it('an unreadable charge, then the left-out id asked again and charged: no overcharge is claimed', async () => {
	const unlocked = new Set<string>();
	let calls = 0;
	fake = await startFakeApi((request, res) => {
		calls++;
		const asked = (request.body as { ids: string[] }).ids;
		const fresh = asked.filter((id) => !unlocked.has(id));
		// The first answer leaves its last id out (not charged) and reports its charge as a string.
		const answered = calls === 1 ? asked.slice(0, -1) : asked;
		answered.forEach((id) => unlocked.add(id));
		const charge = answered.filter((id) => fresh.includes(id)).length;
		const contacts = answered.map((id) => ({ id, unlocked: true, level: 'basic', name: id }));
		const credits_charged = calls === 1 ? String(charge) : charge;
		return json(res, 200, { contacts, credits_charged, credits_remaining: 5_000 });
	});
	const result = await run(sandbox, {
		parameters: unlockParameters({ maxCredits: 1_000 }),
		inputItems: idItems(ids(101)),
		baseUrl: fake.url,
	});
	// The unreadable answer keeps its call's worst case (100) held, the left-out id within it. Before:
	// it was asked again with a worst case of 0, its honest charge of 1 counted as an overcharge
	// "above its call's worst case", and the 101st contact was never sent.
	expect(result.error?.message).toBeUndefined();
	expect(hints(result)[0]).not.toMatch(/above its call's worst case/);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(101);
	expect(unlocked.size).toBe(101);
});

it('Enrich: after an overcharge no lost answer is replayed (no charging call follows)', async () => {
	const { seen, count } = keyedSends();
	fake = await startFakeApi((request, res, req) => {
		count(req);
		const email = (request.body as { email: string }).email;
		// The first lookup's answers are lost (the transport's five attempts); the second charges 5.
		if (seen.size === 1) return res.socket?.destroy();
		const contact = { id: `ct_${email}`, email, unlocked: true, level: 'basic' };
		return json(res, 200, { contact, credits_charged: 5, credits_remaining: 5_000 });
	});
	const result = await run(sandbox, {
		parameters: enrichParameters({
			maxCredits: 10,
			whenMaxCreditsReached: 'whatFits',
			options: {},
		}),
		inputItems: ['a', 'b', 'c'].map((name) => ({ json: { email: `${name}@example.com` } })),
		baseUrl: fake.url,
	});
	// Unlock sends no replay after an overcharge ("no further call was sent"); Enrich replayed the
	// first lookup once more when the third found no room.
	expect(result.error?.message).toMatch(/may have charged/);
	expect([...seen.values()][0]).toBe(5);
	expect(seen.size).toBe(2);
});

it('Enrich: a lost answer replayed mid-run and lost again is kept for Retry On Fail', async () => {
	const { seen, count } = keyedSends();
	const api = { charged: 0 };
	fake = await startFakeApi((request, res, req) => {
		const { key, sends } = count(req);
		const email = (request.body as { email: string }).email;
		if (sends === 1) api.charged++;
		// The first lookup's answer is lost through its send and its replay, answered on the next try.
		if (seen.size === 1 || (seen.keys().next().value === key && sends <= 10))
			return res.socket?.destroy();
		const contact = { id: `ct_${email}`, email, unlocked: true, level: 'basic' };
		return json(res, 200, { contact, credits_charged: 1, credits_remaining: 5_000 });
	});
	const result = await run(sandbox, {
		parameters: enrichParameters({ maxCredits: 2, whenMaxCreditsReached: 'whatFits' }),
		inputItems: ['a', 'b', 'c'].map((name) => ({ json: { email: `${name}@example.com` } })),
		retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
		baseUrl: fake.url,
		nodeId: 'enrich-replayed-lost-again',
	});
	// The second try sends the lost call again (same key) and takes its held worst case over. Before:
	// the replay lost again was kept nowhere, its 1 credit stayed reserved with no key to take it
	// over, and the second try passed item 0 over for the budget.
	expect(result.error).toBeUndefined();
	expect(result.items[0].json.id).toBe('ct_a@example.com');
	expect(api.charged).toBe(2);
});
