/**
 * What a failed charging call says (chargingCall.ts), word for word: a refused first send was not
 * charged; a lost answer, a refused resend and an unreadable 2xx answer may have charged up to the
 * call's worst case, and say how often the call was sent; ids an answer left out may have been
 * charged, and say how often they were asked for. On the canvas the message stays short and the
 * call's words go below it; a tool's message carries them. In n8n's engine against a model of the
 * API on loopback, with no sandbox: fast enough for the mutation test set.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import * as clock from '../../../../../nodes/ContactData/shared/client/clock';
import {
	contactRecord,
	refusal,
	startContactApi,
	type Answer,
	type ContactApi,
	type Respond,
} from '../../../../support/contactApi.cjs';
import { json } from '../../../../support/fakeApi.cjs';
import { listenSwitchably, type SwitchableServer } from '../../../../support/switchableServer.cjs';
import {
	enrichParameters,
	hints,
	idItems,
	run,
	type RunOptions,
	type TestSandbox,
	unlockParameters,
} from '../../setup';
import { contactIds, runOn } from './findings';

let api: ContactApi | undefined;
let server: SwitchableServer | undefined;
afterEach(async () => {
	await api?.close();
	await server?.close();
	api = server = undefined;
});
// The transport's waits between attempts take no real time.
beforeAll(() => (clock.timeScale.waits = 0));
afterAll(() => (clock.timeScale.waits = 1));

const ids = contactIds('t', 4);
const badIds = () => refusal(400, 'invalid_request', 'Bad ids');
const BAD_IDS = '400 invalid_request. Check the parameter named above.';
const unavailable = (): Answer => ({
	status: 503,
	body: { error: { code: 'unavailable', message: 'Try again' } },
});
const NO_USABLE_ANSWER = 'No usable answer from the Contact Data API: it answered 503';
const TRIED_5_TIMES = 'POST /v1/unlock was tried 5 times, with no usable answer. Try again later.';
const EARLIER_SEND =
	'An earlier send of this call got no answer and may have been carried out. Check Credits → Get Balance before running it again.';
const mayHaveCharged = (credits: string) =>
	`may have charged up to ${credits} (counted against Max Credits until the API reports the charge); running the same contacts again returns them free`;

/** An error item's words (its `[item N]` left out: the item's own, not the call's). */
const wordsOf = ({ json: { error, description, httpCode } }: INodeExecutionData) => ({
	error: String(error).replace(/ \[item \d+\]$/, ''),
	description,
	httpCode,
});
const errorItems = (items: INodeExecutionData[]) =>
	items.filter(({ json }) => json.error !== undefined);

/** Unlock of `count` ids with Continue On Fail, each call answered by `respond`. */
async function unlock(respond: Respond, count: number, options: Partial<RunOptions> = {}) {
	api = await startContactApi({ respond });
	const result = await runOn(api, {
		parameters: unlockParameters({ maxCredits: 10 }),
		inputItems: idItems(ids.slice(0, count)),
		continueOnFail: true,
		...options,
	});
	return { ...result, errors: errorItems(result.items) };
}

/** The model's answer with `leftOut` taken out of its contacts (and its charge set, if given). */
const leaving =
	(leftOut: string[], credits_charged?: unknown): Respond =>
	(_call, model) => {
		const answer = model();
		const body = answer.body as { contacts: IDataObject[] };
		const contacts = body.contacts.filter(({ id }) => !leftOut.includes(String(id)));
		const charge = credits_charged === undefined ? {} : { credits_charged };
		return { ...answer, body: { ...body, contacts, ...charge } };
	};

/**
 * An unlock API that can stop listening: the `n`th request gets `reply(n, ids)` ('hang': no answer
 * at all; undefined: every id unlocked at 1 credit); from request `refuseFrom` on, the ones after it
 * find nothing listening.
 */
async function switchable(
	reply: (n: number, ids: string[]) => Answer | 'hang' | undefined,
	refuseFrom = Infinity,
) {
	let received = 0;
	const fake = await listenSwitchably((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const asked = (JSON.parse(Buffer.concat(chunks).toString()) as { ids: string[] }).ids;
			if (++received >= refuseFrom) fake.refuse();
			const answer = reply(received, asked) ?? {
				status: 200,
				body: {
					contacts: asked.map((id) => contactRecord(id, 'basic')),
					credits_charged: asked.length,
					credits_remaining: 1_000,
				},
			};
			if (answer !== 'hang') json(res, answer.status, answer.body);
		});
	});
	server = fake;
	return { url: fake.url, received: () => received };
}
const runAt = async (url: string, options: RunOptions) =>
	await run({ url } as TestSandbox, { ...options, baseUrl: url });

describe('a refused first send: not charged, its worst case released', () => {
	it.each([
		[1, 'contact ct_t000'],
		[2, 'contacts ct_t000, ct_t001'],
		[3, 'contacts ct_t000, ct_t001, ct_t002'],
		[4, '4 contacts'],
	])('%p ids: the call names %s', async (count, named) => {
		const { errors, ...result } = await unlock(badIds, count);
		expect(errors).toHaveLength(count);
		expect(errors.map(wordsOf)).toEqual(
			Array(count).fill({
				error: 'Bad ids',
				description: `/v1/unlock for ${named} was refused, so this call was not charged. ${BAD_IDS}`,
				httpCode: '400',
			}),
		);
		expect(hints(result)).toEqual([
			'Unlocked 0 unique contacts (basic): 0 credits charged of a 10 budget. A contact already unlocked comes back free.',
		]);
	});

	it('Enrich: the call names no contact', async () => {
		api = await startContactApi({ respond: badIds });
		const result = await runOn(api, {
			parameters: enrichParameters({ maxCredits: 10 }),
			inputItems: [{ json: { email: 'ada@acme.example' } }],
			continueOnFail: true,
		});
		expect(errorItems(result.items).map(wordsOf)).toEqual([
			{
				error: 'Bad ids',
				description: `/v1/enrich was refused, so this call was not charged. 400 invalid_request. Check the parameter named above.`,
				httpCode: '400',
			},
		]);
	});
});

describe('a call that may have charged says so, and how often it was sent', () => {
	it('an answer lost on both sends: twice, up to 1 credit', async () => {
		const { errors } = await unlock(unavailable, 1);
		expect(api!.calls).toHaveLength(10);
		expect(errors.map(wordsOf)).toEqual([
			{
				error: `${NO_USABLE_ANSWER}; it may have charged up to 1 credit`,
				description: `/v1/unlock for contact ct_t000 was sent twice with the same Idempotency-Key and ${mayHaveCharged('1 credit')}. ${TRIED_5_TIMES}`,
				httpCode: '503',
			},
		]);
	});

	it('two ids: up to 2 credits, both named', async () => {
		const { errors } = await unlock(unavailable, 2);
		expect(errors.map(wordsOf)).toEqual(
			Array(2).fill({
				error: `${NO_USABLE_ANSWER}; it may have charged up to 2 credits`,
				description: `/v1/unlock for contacts ct_t000, ct_t001 was sent twice with the same Idempotency-Key and ${mayHaveCharged('2 credits')}. ${TRIED_5_TIMES}`,
				httpCode: '503',
			}),
		);
	});

	it('a resend refused after a lost answer: the earlier send may have been carried out', async () => {
		let sends = 0;
		const { errors, ...result } = await unlock(() => (++sends <= 5 ? unavailable() : badIds()), 1);
		expect(errors.map(wordsOf)).toEqual([
			{
				error: 'Bad ids; it may have charged up to 1 credit',
				description: `/v1/unlock for contact ct_t000 was sent twice with the same Idempotency-Key and ${mayHaveCharged('1 credit')}. ${EARLIER_SEND}`,
				httpCode: '400',
			},
		]);
		// Its worst case stays held: the refusal says nothing of the earlier send.
		expect(hints(result)[0]).toMatch(/, and 1 held back for answers that were lost/);
	});

	it('a 2xx answer it cannot read: sent once, not sent again', async () => {
		const { errors } = await unlock((_call, model) => {
			const answer = model();
			return { ...answer, body: { ...(answer.body as IDataObject), contacts: undefined } };
		}, 2);
		expect(api!.calls).toHaveLength(1);
		// No httpCode: the API answered 200, and the error is not about a status.
		expect(errors.map(wordsOf)).toEqual(
			Array(2).fill({
				error:
					'The Contact Data API answered without `contacts`; it may have charged up to 2 credits',
				description: `/v1/unlock for contacts ct_t000, ct_t001 was sent once with the same Idempotency-Key and ${mayHaveCharged('2 credits')}. POST /v1/unlock answered 200, but the node needs \`contacts\` (array): Required. The call was not sent again, as the API may have carried it out already (a charged call may have been charged: see Credits → Get Balance).`,
				httpCode: undefined,
			}),
		);
	});

	it("a lost call that Retry On Fail's next try cannot send: it did not reach the API this time", async () => {
		// Try 1: both sends of the call (five attempts each) lost; then nothing listens.
		const fake = await switchable(() => unavailable(), 10);
		const result = await runAt(fake.url, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(ids.slice(0, 1)),
			retryOnFail: { maxTries: 2, waitBetweenTries: 1 },
		});
		expect(fake.received()).toBe(10);
		// Not sent by this try: no "may have charged up to" in the message, the earlier send below.
		expect(result.error?.message).toBe(`Nothing answers at the Base URL "${fake.url}"`);
		expect(result.error?.httpCode ?? null).toBeNull();
		expect(result.error?.description).toBe(
			`This run: 0 credits charged, and 1 held back for answers that were lost (the API may have charged them). /v1/unlock for contact ct_t000 did not reach the API this time. ${EARLIER_SEND}`,
		);
	});

	it('Stop while a call waits for its answer: the run ends there, its worst case held', async () => {
		let pressStop!: () => void;
		const stopPressed = new Promise<void>((resolve) => (pressStop = resolve));
		const fake = await switchable(() => (pressStop(), 'hang'));
		const result = await runAt(fake.url, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(ids.slice(0, 3)),
			stopWhen: stopPressed,
		});
		expect(fake.received()).toBe(1);
		expect(result.error?.message).toBe('The execution was cancelled [item 0]');
		expect(result.error?.description).toBe(
			'This run: 0 credits charged, and 3 held back for answers that were lost (the API may have charged them).',
		);
	});
});

describe('ids an answer left out may have been charged', () => {
	const notAnswered = (named: string, asked: string, them: string) => ({
		error: `The Contact Data API did not answer for ${named}: it may have been charged`,
		description: `/v1/unlock was asked for ${asked}, and its answer had no entry for ${them}. Its worst case stays counted against Max Credits. Check Credits → Get Balance, then run again: a contact already unlocked comes back free of charge.`,
		httpCode: undefined,
	});

	it('one id left out twice: asked twice, "it"', async () => {
		const { errors } = await unlock(leaving([ids[0]]), 3);
		expect(api!.calls).toHaveLength(2);
		expect(errors.map(wordsOf)).toEqual([notAnswered('contact ct_t000', 'ct_t000 twice', 'it')]);
	});

	it('two ids left out twice: "them"', async () => {
		const { errors } = await unlock(leaving([ids[0], ids[1]]), 3);
		expect(errors.map(wordsOf)).toEqual(
			Array(2).fill(notAnswered('contacts ct_t000, ct_t001', 'ct_t000, ct_t001 twice', 'them')),
		);
	});

	it('no room to ask again: asked once', async () => {
		// An unreadable charge keeps the call's whole worst case (3) held: Max Credits 3 is used up.
		const { errors } = await unlock(leaving([ids[0]], 'two'), 3, {
			parameters: unlockParameters({ maxCredits: 3 }),
		});
		expect(api!.calls).toHaveLength(1);
		expect(errors.map(wordsOf)).toEqual([
			notAnswered('contact ct_t000', 'ct_t000 once (the budget left no room to ask again)', 'it'),
		]);
	});

	it('asking again gets no answer: that call was sent once and may have charged what was left', async () => {
		// The answer charged 2 of the 3 credits reserved: the ask again reserves the 1 left.
		let calls = 0;
		const { errors } = await unlock(
			(call, model) => (++calls === 1 ? leaving([ids[0]], 2)(call, model) : unavailable()),
			3,
		);
		expect(api!.calls).toHaveLength(6);
		expect(errors.map(wordsOf)).toEqual([
			{
				error: `${NO_USABLE_ANSWER}; it may have charged up to 1 credit`,
				description: `/v1/unlock for contact ct_t000 was sent once with the same Idempotency-Key and ${mayHaveCharged('1 credit')}. ${TRIED_5_TIMES}`,
				httpCode: '503',
			},
		]);
	});

	it('asking again gets no answer when the first answer charged it all: no charge in the message', async () => {
		// The answer charged all 3 credits reserved: the ask again reserves none.
		let calls = 0;
		const { errors } = await unlock(
			(call, model) => (++calls === 1 ? leaving([ids[0]])(call, model) : unavailable()),
			3,
		);
		expect(errors.map(({ json }) => json.error)).toEqual([`${NO_USABLE_ANSWER} [item 0]`]);
	});

	it('asking again finds nothing listening: asked once', async () => {
		const fake = await switchable(
			(n, asked) =>
				n === 1
					? {
							status: 200,
							body: {
								contacts: asked.slice(1).map((id) => contactRecord(id, 'basic')),
								credits_charged: 2,
								credits_remaining: 1_000,
							},
						}
					: undefined,
			1,
		);
		const result = await runAt(fake.url, {
			parameters: unlockParameters({ maxCredits: 10 }),
			inputItems: idItems(ids.slice(0, 3)),
			continueOnFail: true,
		});
		expect(fake.received()).toBe(1);
		expect(errorItems(result.items).map(wordsOf)).toEqual([
			notAnswered('contact ct_t000', 'ct_t000 once (asking again did not reach the API)', 'it'),
		]);
	});
});

describe('a refusal for ids an earlier answer left out: they may have been charged', () => {
	const retryOnFail = { maxTries: 2, waitBetweenTries: 1 };
	/**
	 * The first answer leaves `leftOut` out (the API charged them), and so does its replay; every
	 * other call is refused.
	 */
	const leftOutThenRefused = (leftOut: string[], refused: () => Answer): Respond => {
		let first: string | undefined;
		return (call, model) =>
			(first ??= call.key) === call.key ? leaving(leftOut)(call, model) : refused();
	};

	it.each([
		[[ids[0]], 'contact ct_t000', 'contact ct_t000 out and may have charged it'],
		[
			ids.slice(0, 2),
			'contacts ct_t000, ct_t001',
			'contacts ct_t000, ct_t001 out and may have charged them',
		],
	])(
		'Retry On Fail\'s next try sends %p in a new call, refused: never "not charged"',
		async (leftOut, named, said) => {
			api = await startContactApi({ respond: leftOutThenRefused(leftOut, badIds) });
			const result = await runOn(api, {
				parameters: unlockParameters({ maxCredits: 10 }),
				inputItems: idItems(ids.slice(0, 3)),
				retryOnFail,
			});
			// Try 1: the call, its ask again (refused); try 2: the first call replayed, a new call refused.
			expect(api.calls.map(({ body }) => body.ids)).toEqual([
				ids.slice(0, 3),
				leftOut,
				ids.slice(0, 3),
				leftOut,
			]);
			expect(result.error?.message).toBe('Bad ids [item 0]');
			expect(result.error?.description).toBe(
				`This run: 3 credits charged; run it again and what it charged for comes back free. /v1/unlock for ${named} was refused; an earlier answer left ${said}. ${BAD_IDS}`,
			);
		},
	);

	it('an ask again refused 402 ends the calls: the items not sent say why it was asked again', async () => {
		const many = contactIds('m', 150);
		api = await startContactApi({
			respond: leftOutThenRefused([many[0]], () =>
				refusal(402, 'insufficient_credits', 'Not enough credits'),
			),
		});
		const result = await runOn(api, {
			parameters: unlockParameters({ maxCredits: 1_000 }),
			inputItems: idItems(many),
			continueOnFail: true,
		});
		expect(api.calls.map(({ body }) => body.ids?.length)).toEqual([100, 1]);
		const notSent = errorItems(result.items).slice(1);
		expect(notSent.map(({ json }) => json.id)).toEqual(many.slice(100));
		expect(new Set(notSent.map(wordsOf).map((words) => JSON.stringify(words)))).toEqual(
			new Set([
				JSON.stringify({
					error: 'Not enough credits',
					description:
						'/v1/unlock for contact ct_m000 was refused; an earlier answer left contact ct_m000 out and may have charged it. insufficient_credits: the ids were asked for again because an answer left them out. Check Credits → Get Balance before running it again.',
					httpCode: '402',
				}),
			]),
		);
	});
});

describe("as a tool: the call's words in the message a model reads", () => {
	const asTool = {
		asTool: true,
		parameters: unlockParameters({ maxCredits: 10, contactIds: '={{ $json.id }}' }),
	};
	const notDone = (items: INodeExecutionData[]) =>
		(items[0].json.not_done as IDataObject[]).map((json) => wordsOf({ json }));
	const creditsOf = (items: INodeExecutionData[]) => items[0].json.credits as IDataObject;

	it('refused: not charged, the API’s words below', async () => {
		const { items } = await unlock(badIds, 1, asTool);
		expect(notDone(items)).toEqual([
			{
				error: 'Bad ids. /v1/unlock for contact ct_t000 was refused, so this call was not charged',
				description: BAD_IDS,
				httpCode: '400',
			},
		]);
	});

	it('lost: sent twice, up to 2 credits, in the message', async () => {
		const { items } = await unlock(unavailable, 2, asTool);
		expect(notDone(items)).toEqual(
			Array(2).fill({
				error: `${NO_USABLE_ANSWER}. /v1/unlock for contacts ct_t000, ct_t001 was sent twice with the same Idempotency-Key and ${mayHaveCharged('2 credits')}`,
				description: TRIED_5_TIMES,
				httpCode: '503',
			}),
		);
	});

	it('a first answer lost after the API charged it, then replayed: 1 replayed', async () => {
		let sends = 0;
		const { items } = await unlock(
			(_call, model) => {
				const answer = model();
				return ++sends === 1 ? unavailable() : answer;
			},
			2,
			asTool,
		);
		expect(api!.calls).toHaveLength(2);
		expect(api!.debited()).toBe(2);
		expect(creditsOf(items)).toMatchObject({ spent_by_this_call: 2, replayed: 1 });
	});

	it('a first answer read at once: 0 replayed', async () => {
		const { items } = await unlock((_call, model) => model(), 2, asTool);
		expect(creditsOf(items)).toMatchObject({ spent_by_this_call: 2, replayed: 0 });
	});
});
