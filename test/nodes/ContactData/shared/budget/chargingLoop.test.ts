/**
 * The charging loop's own choices (chargingLoop.ts) in n8n's engine against a model of the API on
 * loopback: which lost calls a run sends again under their key, when the calls stop, what a lost
 * call's charge leaves room for, and what an answer that leaves ids out holds back.
 */
import type { IDataObject } from 'n8n-workflow';

import * as clock from '../../../../../nodes/ContactData/shared/client/clock';
import { runAsTools, type Execution, type ToolNode } from '../../../../model/workflow';
import {
	refusal,
	startContactApi,
	type ApiCall,
	type ContactApi,
	type Respond,
} from '../../../../support/contactApi.cjs';
import { enrichParameters, hints, idItems, KEYS, unlockParameters, WHAT_FITS } from '../../setup';
import { contactIds, runOn, textOf } from './findings';

let api: ContactApi | undefined;
afterEach(async () => {
	await api?.close();
	api = undefined;
});
// The transport's waits between attempts take no real time.
beforeAll(() => (clock.timeScale.waits = 0));
afterAll(() => (clock.timeScale.waits = 1));

const unavailable = refusal(503, 'unavailable', 'Try again');

/** The model, with every send of the calls whose Idempotency-Key `lose` picks answered 503. */
const losing =
	(lose: (call: ApiCall, sends: number, nth: number) => boolean): Respond =>
	(call, model) => {
		const keys = [...new Set(api!.calls.map(({ key }) => key))];
		const sends = api!.calls.filter(({ key }) => key === call.key).length;
		return lose(call, sends, keys.indexOf(call.key) + 1) ? unavailable : model();
	};

/** The first call's every send lost (not carried out). */
const firstCallLost = losing((_call, _sends, nth) => nth === 1);

const keysOf = (calls: ApiCall[]) => calls.map(({ key }) => key);

describe('the lost calls a run sends again under their own key (planOf)', () => {
	const x = 'ct_x000';
	const y = 'ct_y000';
	const z = 'ct_z000';
	const tool = (name: string): ToolNode => ({
		name,
		credential: 'cred',
		parameters: {
			...unlockParameters({ maxCredits: 100, level: '={{ $json.level }}' }),
			contactIds: '={{ $json.ids }}',
		},
	});

	/**
	 * One execution: tool node A asks for [x, y] at basic and every send of that call is lost; then
	 * `next` asks. What `next` sent (from the second tool call on), and the lost call's key.
	 */
	async function afterLostCall(next: { tool: string; input: IDataObject }) {
		api = await startContactApi({ respond: firstCallLost });
		const e: Execution = {
			workflowId: 'wf-charging-loop',
			credentials: { cred: { apiKey: KEYS.growth, baseUrl: api.url, timeout: 2 } },
			version: 2,
			// A lost call sent again and lost again fails its ids: the rest goes on all the same.
			continueOnFail: true,
			tries: 1,
		};
		let from = 0;
		const mark = async (call: number) => void (call === 1 && (from = api!.calls.length));
		const first = { tool: 'A', input: { ids: [x, y], level: 'basic' } };
		await runAsTools(e, [tool('A'), tool('B')], [first, next], mark);
		const lostKey = api.calls[0].key;
		expect(keysOf(api.calls.slice(0, from)).every((key) => key === lostKey)).toBe(true);
		return { sent: api.calls.slice(from), lostKey };
	}

	it('a lost call all of whose ids this node asks for again at its level is sent again under its key', async () => {
		const { sent, lostKey } = await afterLostCall({
			tool: 'A',
			input: { ids: [x, y, z], level: 'basic' },
		});
		expect(keysOf(sent)).toContain(lostKey);
		// z alone in a new call
		expect(sent.filter(({ key }) => key !== lostKey).map(({ body }) => body.ids)).toEqual([[z]]);
	});

	it('another node’s lost call for the same ids is not sent: that node takes it over', async () => {
		const { sent, lostKey } = await afterLostCall({
			tool: 'B',
			input: { ids: [x, y], level: 'basic' },
		});
		expect(keysOf(sent)).not.toContain(lostKey);
		expect(sent.map(({ body }) => body)).toEqual([{ ids: [x, y], level: 'basic' }]);
	});

	it('a lost call at another level is not sent: its answer would be at the wrong level', async () => {
		const { sent, lostKey } = await afterLostCall({
			tool: 'A',
			input: { ids: [x, y], level: 'premium' },
		});
		expect(keysOf(sent)).not.toContain(lostKey);
		expect(sent.map(({ body }) => body)).toEqual([{ ids: [x, y], level: 'premium' }]);
	});

	it('a lost call only partly wanted is not sent: it would unlock ids nobody asked for', async () => {
		const { sent, lostKey } = await afterLostCall({
			tool: 'A',
			input: { ids: [x], level: 'basic' },
		});
		expect(keysOf(sent)).not.toContain(lostKey);
		expect(sent.map(({ body }) => body)).toEqual([{ ids: [x], level: 'basic' }]);
	});
});

describe('when the calls stop', () => {
	it('a replay’s answer that fails an id this run did not ask for does not stop its new calls', async () => {
		// Tool call 1 unlocks [a, u]; u is unknown. Tool call 2 asks for [a, b]: a comes back by a
		// replay of call 1, whose answer fails u again; b goes out in a new call all the same.
		const [a, u, b] = ['ct_a900', 'ct_u900', 'ct_b900'];
		api = await startContactApi({ unknown: [u] });
		const e: Execution = {
			workflowId: 'wf-charging-loop-replay',
			credentials: { cred: { apiKey: KEYS.growth, baseUrl: api.url, timeout: 2 } },
			version: 2,
			continueOnFail: false,
			tries: 1,
		};
		const unlockTool: ToolNode = {
			name: 'A',
			credential: 'cred',
			parameters: { ...unlockParameters({ maxCredits: 100 }), contactIds: '={{ $json.ids }}' },
		};
		const calls = [
			{ tool: 'A', input: { ids: [a, u] } },
			{ tool: 'A', input: { ids: [a, b] } },
		];
		await runAsTools(e, [unlockTool], calls, async () => {});
		expect(api.calls.map(({ body }) => body.ids)).toEqual([[a, u], [a, u], [b]]);
		expect(api.calls[1].key).toBe(api.calls[0].key);
	});

	it('after an overcharge no call follows, the lost call not sent again either', async () => {
		// Call 1 is lost; call 2 (100 ids, worst case 100) is debited 100 and reports 105.
		const overcharging = losing((_call, _sends, nth) => nth === 1);
		api = await startContactApi({
			respond: (call, model) => {
				const answer = overcharging(call, model);
				if ([...new Set(keysOf(api!.calls))].indexOf(call.key) !== 1) return answer;
				return { ...answer, body: { ...(answer.body as IDataObject), credits_charged: 105 } };
			},
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 300 }),
			inputItems: idItems(contactIds('o', 300)),
		});
		const [lostKey, overchargedKey] = [...new Set(keysOf(api.calls))];
		// Before the overcharge: call 1's sends (the transport's attempts), then call 2 once.
		expect(keysOf(api.calls).at(-1)).toBe(overchargedKey);
		expect(keysOf(api.calls).filter((key) => key === overchargedKey)).toHaveLength(1);
		expect(new Set(keysOf(api.calls))).toEqual(new Set([lostKey, overchargedKey]));
		expect(hints(result).join(' ') + String(result.error?.description)).toMatch(
			/impossible charge \(credits_charged: 105\)/,
		);
	});

	it('a failure without Continue On Fail stops the calls: no later call for the ids queued', async () => {
		api = await startContactApi({
			respond: (_call, model) =>
				api!.calls.length === 1 ? refusal(400, 'invalid_request', 'Bad ids') : model(),
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 300, ...WHAT_FITS }),
			inputItems: idItems(contactIds('f', 250)),
		});
		expect(result.error?.message).toMatch(/Bad ids/);
		expect(api.calls).toHaveLength(1);
		expect(api.debited()).toBe(0);
	});

	it('Enrich: a person not found stops the calls, unless Output No-Match Items makes it an item', async () => {
		const lookups = async (options: IDataObject) => {
			api = await startContactApi({ unknown: ['b@acme.example'] });
			const result = await runOn(api, {
				parameters: enrichParameters({ maxCredits: 10, options }),
				inputItems: ['a', 'b', 'c'].map((name) => ({ json: { email: `${name}@acme.example` } })),
			});
			const emails = api.calls.map(({ body }) => body.email);
			await api.close();
			api = undefined;
			return { result, emails };
		};
		const stopped = await lookups({});
		expect(stopped.result.error?.message).toMatch(/No contact matches the email "b@acme.example"/);
		expect(stopped.emails).toEqual(['a@acme.example', 'b@acme.example']);
		const noMatchItem = await lookups({ outputNoMatch: true });
		expect(noMatchItem.result.error).toBeUndefined();
		expect(noMatchItem.emails).toEqual(['a@acme.example', 'b@acme.example', 'c@acme.example']);
		expect(noMatchItem.result.items.map(({ json }) => json.matched)).toEqual([true, false, true]);
	});

	it('a 402 under Continue On Fail stops the calls: the next ones would be refused too', async () => {
		// A balance of 150: call 1 (100 ids) is charged, call 2 refused 402.
		api = await startContactApi({ balance: 150 });
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 1_000 }),
			inputItems: idItems(contactIds('r', 300)),
			continueOnFail: true,
		});
		expect(api.calls).toHaveLength(2);
		expect(api.debited()).toBe(100);
		expect(result.items.filter(({ json }) => json.error === undefined)).toHaveLength(100);
		expect(result.items).toHaveLength(300);
	});

	it('a 402 to a lost call sent again by Retry On Fail stops the calls: the next lost call waits', async () => {
		// Try 1: calls 1 and 2 are lost (none carried out), call 1 sent once more at the end of the
		// run. Try 2 sends them again under their keys; the balance has gone meanwhile: call 1, its
		// eleventh send, is refused 402.
		api = await startContactApi({
			respond: (call) => {
				const sends = api!.calls.filter(({ key }) => key === call.key).length;
				if (sends <= 10) return unavailable;
				return refusal(402, 'insufficient_credits', 'Not enough credits');
			},
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 200 }),
			inputItems: idItems(contactIds('k', 200)),
			retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
			nodeId: 'lost-then-402',
		});
		const [first] = keysOf(api.calls);
		// Call 1 was refused by its last send; nothing was sent after it.
		expect(keysOf(api.calls).at(-1)).toBe(first);
		expect(keysOf(api.calls).filter((key) => key === first)).toHaveLength(11);
		expect(result.error?.message).toMatch(/Not enough credits/);
	});

	it('a 402 to a lost call sent again at the end of the run stops the calls: the next lost call waits', async () => {
		// Calls 1 and 2 are lost (five sends each, none carried out); sent again at the end of the
		// run, call 1 is refused 402.
		api = await startContactApi({
			respond: (call) => {
				const sends = api!.calls.filter(({ key }) => key === call.key).length;
				if (sends <= 5) return unavailable;
				return refusal(402, 'insufficient_credits', 'Not enough credits');
			},
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 200 }),
			inputItems: idItems(contactIds('e', 200)),
		});
		const [first, second] = [...new Set(keysOf(api.calls))];
		expect(keysOf(api.calls).filter((key) => key === first)).toHaveLength(6);
		expect(keysOf(api.calls).filter((key) => key === second)).toHaveLength(5);
		expect(result.error?.message).toMatch(/Not enough credits/);
	});

	it('an unreadable 2xx answer is not sent again: its worst case stays held', async () => {
		// Call 1 is carried out, its answer fails the schema; call 2 is answered.
		api = await startContactApi({
			respond: (_call, model) => {
				const answer = model();
				if (api!.calls.length > 1) return answer;
				return { status: 200, body: { contacts: 'unreadable' } };
			},
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 300 }),
			inputItems: idItems(contactIds('u', 200)),
			continueOnFail: true,
		});
		expect(api.calls).toHaveLength(2);
		expect(new Set(keysOf(api.calls)).size).toBe(2);
		expect(result.items.filter(({ json }) => json.error === undefined)).toHaveLength(100);
		expect(hints(result)[0]).toMatch(/100 credits charged of a 300 budget, and 100 held back/);
	});
});

describe('new calls and lost calls', () => {
	it('a lost call sent again by Retry On Fail and lost again is kept lost: the next try sends it too', async () => {
		api = await startContactApi({ respond: () => unavailable });
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 100 }),
			inputItems: idItems(contactIds('t', 100)),
			retryOnFail: { maxTries: 3, waitBetweenTries: 1 },
			nodeId: 'lost-in-every-try',
		});
		// One key, each send the transport's five attempts: try 1 sends it, then once more at the end
		// of the run; tries 2 and 3 send it again, once each.
		expect(new Set(keysOf(api.calls)).size).toBe(1);
		expect(api.calls).toHaveLength(4 * 5);
		expect(textOf(result.error)).toMatch(/may have charged up to 100 credits/);
	});

	it('a call’s worst case is the price of its ids: a lost last call of 50 ids holds 50', async () => {
		api = await startContactApi({ respond: losing((_call, _sends, nth) => nth === 2) });
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 500 }),
			inputItems: idItems(contactIds('h', 150)),
			continueOnFail: true,
		});
		expect(api.calls.at(-1)!.body.ids).toEqual(contactIds('h', 150).slice(100));
		expect(hints(result)[0]).toMatch(/100 credits charged of a 500 budget, and 50 held back/);
	});

	it('a lost call’s charge, known once it is sent again, leaves room for the ids still queued', async () => {
		// Max Credits 150: call 1 (100 ids, half of them held by the account already, so 50 charged)
		// is lost on its first send, call 2 takes the 50 left; call 1 sent again settles at 50, which
		// leaves room for 50 more.
		const heldBefore = contactIds('w', 50);
		api = await startContactApi({
			respond: losing((_call, sends, nth) => nth === 1 && sends <= 5),
		});
		for (const id of heldBefore) api.account(KEYS.growth).held.set(id, 1);
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 150, ...WHAT_FITS }),
			inputItems: idItems([...heldBefore, ...contactIds('v', 150)]),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.filter(({ json }) => json.unlock_skipped !== undefined)).toEqual([]);
		expect(api.calls.at(-1)!.body.ids).toEqual(contactIds('v', 150).slice(100));
		expect(api.debited()).toBe(150);
	});
});

describe('an answer that leaves ids out', () => {
	/** Call 1's answer leaves its last id out, though the API debited it; later calls as the model. */
	const leavingOutCharged: Respond = (_call, model) => {
		const answer = model();
		if (api!.calls.length > 1) return answer;
		const body = answer.body as { contacts: IDataObject[]; credits_charged: number };
		const contacts = body.contacts.slice(0, -1);
		return { ...answer, body: { ...body, contacts, credits_charged: contacts.length } };
	};

	it('asked again and found free (held already): what the first answer may have charged is held back', async () => {
		api = await startContactApi({ respond: leavingOutCharged });
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(contactIds('l', 5)),
		});
		expect(api.calls.map(({ body }) => body.ids)).toEqual([
			contactIds('l', 5),
			contactIds('l', 5).slice(4),
		]);
		expect(api.calls[0].key).not.toBe(api.calls[1].key);
		expect(result.error).toBeUndefined();
		expect(api.debited()).toBe(5);
		expect(hints(result)[0]).toMatch(/4 credits charged of a 10 budget, and 1 held back/);
	});

	it('an ask again has a key of its own: for a call’s only id, and one per call', async () => {
		// Every answer of a new call leaves its last id out (debited); the asks again are answered.
		const firsts = new Set<string>();
		api = await startContactApi({
			respond: (call, model) => {
				const answer = model();
				const body = answer.body as { contacts: IDataObject[]; credits_charged: number };
				if (call.body.ids!.length === 1 && firsts.size > 0 && !firsts.has(call.key)) return answer;
				firsts.add(call.key);
				const contacts = body.contacts.slice(0, -1);
				return { ...answer, body: { ...body, contacts, credits_charged: contacts.length } };
			},
		});
		const unlockIds = async (count: number, prefix: string) => {
			firsts.clear();
			const result = await runOn(api!, {
				parameters: unlockParameters({ maxCredits: 1_000 }),
				inputItems: idItems(contactIds(prefix, count)),
			});
			expect(result.error).toBeUndefined();
			return result.items.map(({ json }) => json.id);
		};
		expect(await unlockIds(1, 'i')).toEqual(contactIds('i', 1));
		expect(keysOf(api.calls)).toHaveLength(2);
		expect(await unlockIds(200, 'j')).toEqual(contactIds('j', 200));
		// Two calls, two asks again: four keys.
		expect(new Set(keysOf(api.calls.slice(2)))).toHaveProperty('size', 4);
	});

	it('the answer charged the id it left out: asked again, found free, nothing more held back', async () => {
		api = await startContactApi({
			respond: (call, model) => {
				const answer = leavingOutCharged(call, model);
				if (api!.calls.length > 1) return answer;
				return { ...answer, body: { ...(answer.body as IDataObject), credits_charged: 5 } };
			},
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(contactIds('c', 5)),
		});
		expect(api.calls).toHaveLength(2);
		expect(result.error).toBeUndefined();
		expect(hints(result)[0]).toMatch(/5 credits charged of a 10 budget/);
		expect(hints(result)[0]).not.toMatch(/held back/);
	});

	it('an ask again refused: the id did not come back and may have been charged', async () => {
		api = await startContactApi({
			respond: (call, model) =>
				api!.calls.length === 1
					? leavingOutCharged(call, model)
					: refusal(403, 'forbidden', 'Not now'),
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(contactIds('d', 5)),
			continueOnFail: true,
		});
		expect(api.calls).toHaveLength(2);
		expect(result.items[4].json.error).toMatch(
			/did not answer for contact ct_d004: it may have been charged/,
		);
	});

	it('an ask again lost: its error says what it may have charged', async () => {
		api = await startContactApi({
			respond: (call, model) =>
				api!.calls.length === 1 ? leavingOutCharged(call, model) : unavailable,
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(contactIds('g', 5)),
			continueOnFail: true,
		});
		expect(new Set(keysOf(api.calls)).size).toBe(2);
		const error = String(result.items[4].json.error);
		expect(error).toMatch(/may have charged up to 1 credit/);
		expect(error).not.toMatch(/did not answer/);
	});

	it('left out again when asked again: held back once, by the ask again', async () => {
		api = await startContactApi({
			respond: (call, model) => {
				const answer = leavingOutCharged(call, model);
				if (api!.calls.length === 1) return answer;
				// The ask again: free (held already), and its entry left out again.
				return { ...answer, body: { ...(answer.body as IDataObject), contacts: [] } };
			},
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(contactIds('a', 5)),
			continueOnFail: true,
		});
		expect(api.calls).toHaveLength(2);
		expect(api.debited()).toBe(5);
		expect(result.items[4].json.error).toMatch(/did not answer for contact ct_a004/);
		expect(hints(result)[0]).toMatch(/4 credits charged of a 10 budget, and 1 held back/);
	});

	it('an unreadable charge and no room to ask again: the call’s worst case stays held, once', async () => {
		// Max Credits 100 for 100 ids: the answer leaves one out and its charge is unreadable.
		api = await startContactApi({
			respond: (call, model) => {
				const answer = leavingOutCharged(call, model);
				if (api!.calls.length > 1) return answer;
				return { ...answer, body: { ...(answer.body as IDataObject), credits_charged: '99' } };
			},
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 100 }),
			inputItems: idItems(contactIds('n', 100)),
			continueOnFail: true,
		});
		expect(api.calls).toHaveLength(1);
		expect(result.items[99].json.error).toMatch(/did not answer for contact ct_n099/);
		expect(hints(result)[0]).toMatch(/0 credits charged of a 100 budget, and 100 held back/);
	});
});
