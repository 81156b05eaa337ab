/**
 * Enrich when the API answers a charge the contract rules out (issue 19): a negative charge, or
 * one above the call's worst case, never widens Max Credits.
 */
import { PATHS } from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import { api, contacts, hints, keyStats, run, type TestSandbox } from '../../setup';

jest.setTimeout(120_000);

let sandbox: TestSandbox;
/** People with an email the service knows (learnt by unlocking them, then reset). */
let people: Array<{ id: string; email: string }>;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 20_000 });
	const withEmail = (await contacts(sandbox, 200))
		.filter((contact) => contact.has_email)
		.slice(0, 40);
	const { body } = await api<{ contacts: Array<{ id: string; email: string }> }>(
		sandbox,
		'POST',
		PATHS.unlock,
		{
			ids: withEmail.map((contact) => contact.id),
		},
	);
	people = body.contacts.filter((contact) => contact.email).slice(0, 12);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());
afterEach(async () => sandbox.admin.clearFaults());

const enrichWhatFits = (maxCredits: number) => ({
	resource: 'contact',
	operation: 'enrich',
	email: '={{ $json.email }}',
	maxCredits,
	whenMaxCreditsReached: 'whatFits',
});

it.each([[-50], [2.5], ['one']])(
	'credits_charged %p on every answer, Enrich What Fits, Max Credits 4, 12 new people: at most 4 charged',
	async (charge) => {
		expect(people).toHaveLength(12);
		await sandbox.admin.setFaults([
			{
				route: 'POST /v1/enrich',
				kind: 'rewrite',
				phase: 'after',
				set: { credits_charged: charge },
			},
		]);
		const emails = people.map(({ email }) => ({ json: { email } }));
		const result = await run(sandbox, {
			parameters: enrichWhatFits(4),
			inputItems: emails,
			continueOnFail: true,
		});
		expect((await keyStats(sandbox)).credits_charged).toBeLessThanOrEqual(4);
		expect(result.items).toHaveLength(12);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			emails.map((_, item) => ({ item })),
		);
		// The people the API charged for come out as records; the rest pass through marked.
		expect(result.items.slice(0, 4).map((item) => item.json.id)).toEqual(
			people.slice(0, 4).map(({ id }) => id),
		);
		expect(result.items.slice(4).every((item) => item.json.unlock_skipped === 'budget')).toBe(true);
		expect(hints(result)[0]).toMatch(/impossible charge/);
		expect(hints(result)[0]).toMatch(/the worst case of those calls stay counted/);
	},
);

it('credits_charged 7 for a worst case of 1: held back as reported, and no further call is sent', async () => {
	await sandbox.admin.setFaults([
		{ route: 'POST /v1/enrich', kind: 'rewrite', phase: 'after', set: { credits_charged: 7 } },
	]);
	const emails = people.map(({ email }) => ({ json: { email } }));
	const result = await run(sandbox, {
		parameters: enrichWhatFits(4),
		inputItems: emails,
		continueOnFail: true,
	});
	// One call reached the API; the misbehaving answer passes Max Credits by that call at most.
	expect((await keyStats(sandbox)).credits_charged).toBe(1);
	expect(result.items[0].json.id).toBe(people[0].id);
	expect(result.items.slice(1).every((item) => item.json.unlock_skipped === 'budget')).toBe(true);
	// It may be an answer the contract rules out or an API that charged 7: 0 told, 7 held back.
	expect(hints(result)[0]).toMatch(
		/^Enriched 1 item \(basic\): 0 credits charged of a 4 budget, and 7 held back/,
	);
	expect(hints(result)[0]).toMatch(
		/impossible charge \(credits_charged: 7\) above its call's worst case: it is held back as reported \(the API may have charged it\), and no further call was sent/,
	);
});

it('a charge within the worst case is taken as reported: no impossible charge', async () => {
	const emails = people.slice(0, 3).map(({ email }) => ({ json: { email } }));
	const result = await run(sandbox, { parameters: enrichWhatFits(3), inputItems: emails });
	expect(result.items.map((item) => item.json.id)).toEqual(people.slice(0, 3).map(({ id }) => id));
	expect(hints(result)[0]).toMatch(/^Enriched 3 items \(basic\): 3 credits charged of a 3 budget/);
	expect(hints(result)[0]).not.toMatch(/impossible/);
});

it('the same person twice, the first answer lost before the API got it: Max Credits 1 holds', async () => {
	await sandbox.admin.setFaults([
		{ route: 'POST /v1/enrich', kind: 'drop', count: 5, phase: 'before' },
	]);
	const [x, y] = people;
	const result = await run(sandbox, {
		parameters: enrichWhatFits(1),
		inputItems: [x, x, y].map(({ email }) => ({ json: { email } })),
		continueOnFail: true,
	});
	expect((await keyStats(sandbox)).credits_charged).toBeLessThanOrEqual(1);
	expect(result.items.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
});
