/** Contact → Enrich: by email or LinkedIn URL, validated before sending, no-match as an output, budget. */
import { PATHS } from '../../../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../../../harness/sandbox';
import { api, contacts, keyStats, run, type TestSandbox } from '../../setup';

let sandbox: TestSandbox;
/** People the service knows: their email and LinkedIn URL (learnt by unlocking them, then reset). */
let people: Array<{ id: string; email: string; linkedin_url: string }>;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 5_000 });
	const ids = (await contacts(sandbox, 50))
		.filter((contact) => contact.has_email)
		.map((contact) => contact.id);
	const { body } = await api<{
		contacts: Array<{ id: string; email: string; linkedin_url: string }>;
	}>(sandbox, 'POST', PATHS.unlock, { ids: ids.slice(0, 4), level: 'basic' });
	people = body.contacts;
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

/** Email and LinkedIn URL from expressions (Person From → Expressions); fields of each item: perItemReaders.test.ts. */
const enrich = (parameters: Record<string, unknown> = {}) => ({
	resource: 'contact',
	operation: 'enrich',
	personFrom: 'expression',
	email: '={{ $json.email }}',
	maxCredits: 100,
	...parameters,
});

it('finds people by email (per item, from expressions) and charges as an unlock', async () => {
	const result = await run(sandbox, {
		parameters: enrich(),
		inputItems: people.slice(0, 3).map(({ email }) => ({ json: { email } })),
	});
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.id, item.pairedItem])).toEqual(
		people.slice(0, 3).map(({ id }, item) => [id, { item }]),
	);
	expect(result.items[0].json).toMatchObject({
		unlocked: true,
		level: 'basic',
		email: people[0].email,
	});
	expect((await keyStats(sandbox)).credits_charged).toBe(3);
});

it('finds people by LinkedIn URL, at premium level (2 credits)', async () => {
	const result = await run(sandbox, {
		parameters: enrich({ email: '', linkedinUrl: '={{ $json.url }}', level: 'premium' }),
		inputItems: [{ json: { url: people[3].linkedin_url } }],
	});
	expect(result.error).toBeUndefined();
	expect(result.items[0].json).toMatchObject({ id: people[3].id, level: 'premium' });
	expect(result.items[0].json).toHaveProperty('work_history');
	expect((await keyStats(sandbox)).credits_charged).toBe(2);
});

it('refuses bad input before sending, naming the parameter and the item', async () => {
	const cases: Array<[Record<string, unknown>, RegExp]> = [
		[
			{ email: 'not-an-email' },
			/^Email: "not-an-email" must be an email address; type an email address, e.g. \S+@\S+$/,
		],
		[{ email: '' }, /^Email: \(empty\); an email or a LinkedIn URL is required; type an email /],
		[
			{ email: '', linkedinUrl: 'http://linkedin.com/in/ada' },
			/^LinkedIn URL: "http:\/\/linkedin\.com\/in\/ada" must be https:\/\/www\.linkedin\.com\/in\/<handle>; type a LinkedIn profile URL, e\.g\. https:\/\/www\.linkedin\.com\/in\/\S+$/,
		],
	];
	for (const [parameters, message] of cases) {
		const result = await run(sandbox, { parameters: enrich(parameters) });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
	}
	expect((await sandbox.admin.stats()).requests_total).toBe(0);
});

it('a person the service does not know: a 404 error by default, naming the item', async () => {
	const result = await run(sandbox, {
		parameters: enrich(),
		inputItems: [
			{ json: { email: people[0].email } },
			{ json: { email: 'nobody@nowhere.example' } },
		],
	});
	expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
	// The run's charge (the first item's) is said where the run stops (issue 37, finding 1): first
	// below the short message.
	expect(result.error?.message).toBe(
		'No contact matches the email "nobody@nowhere.example" [item 1]',
	);
	expect(result.error?.description).toMatch(
		/^This run: 1 credit charged; run it again and what it charged for comes back free\. /,
	);
	// It points to the option that turns a no-match into an item, and says nothing was charged.
	expect(result.error?.description).toMatch(/This lookup was not charged.*Output No-Match Items/);
	expect(result.error?.description).not.toMatch(/Check the id/);
});

it('Output No-Match Items: a no-match is an item with matched false, found ones carry matched true', async () => {
	const result = await run(sandbox, {
		parameters: enrich({ options: { outputNoMatch: true } }),
		inputItems: [
			{ json: { email: 'nobody@nowhere.example' } },
			{ json: { email: people[1].email } },
		],
	});
	expect(result.error).toBeUndefined();
	expect(result.items[0]).toEqual({
		json: { matched: false, email: 'nobody@nowhere.example', linkedin_url: null },
		pairedItem: { item: 0 },
	});
	expect(result.items[1].json).toMatchObject({ matched: true, id: people[1].id });
	expect((await keyStats(sandbox)).credits_charged).toBe(1);
});

it('continueOnFail, Enrich What Fits: bad and unknown items become error items; a no-match costs nothing; the budget stops further charges', async () => {
	const result = await run(sandbox, {
		parameters: enrich({ maxCredits: 2, whenMaxCreditsReached: 'whatFits' }),
		inputItems: [
			{ json: { email: people[0].email } },
			{ json: { email: 'broken' } },
			{ json: { email: 'nobody@nowhere.example' } },
			{ json: { email: people[1].email } },
			{ json: { email: people[2].email } },
		],
		continueOnFail: true,
	});
	expect(
		result.items.map((item) => item.json.error ?? item.json.id ?? item.json.unlock_skipped),
	).toEqual([
		people[0].id,
		expect.stringMatching(/^Email: "broken" must be an email address/),
		expect.stringMatching(/\[item 2\]/),
		people[1].id,
		'budget',
	]);
	expect(result.items[4].json).toEqual({ email: people[2].email, unlock_skipped: 'budget' });
	expect(result.items.map((item) => item.pairedItem)).toEqual(
		[0, 1, 2, 3, 4].map((item) => ({ item })),
	);
	expect((await keyStats(sandbox)).credits_charged).toBe(2);
});

it('a lost answer after charging is sent again, and the re-unlock is free', async () => {
	await sandbox.admin.setFaults([
		{ route: 'POST /v1/enrich', kind: 'drop', count: 1, phase: 'after' },
	]);
	const result = await run(sandbox, {
		parameters: enrich(),
		inputItems: [{ json: { email: people[0].email } }],
	});
	await sandbox.admin.clearFaults();
	expect(result.error).toBeUndefined();
	expect(result.items[0].json.id).toBe(people[0].id);
	const stats = await keyStats(sandbox);
	expect(stats.requests['POST /v1/enrich']).toBe(2);
	expect(stats.credits_charged).toBe(1);
});

it('paces enrich calls under the time-scaled limit of 60 charged calls a minute: no 429', async () => {
	// 130 people, over twice the limit; their emails read from an unlock before the account is reset.
	const ids = (await contacts(sandbox, 400))
		.filter((contact) => contact.has_email)
		.map(({ id }) => id);
	const emails: string[] = [];
	for (const from of [0, 100]) {
		const { body } = await api<{ contacts: Array<{ email: string }> }>(
			sandbox,
			'POST',
			PATHS.unlock,
			{
				ids: ids.slice(from, Math.min(from + 100, 130)),
				level: 'basic',
			},
		);
		emails.push(...body.contacts.map(({ email }) => email));
	}
	expect(emails).toHaveLength(130);
	await sandbox.admin.reset();
	const inputItems = emails.map((email) => ({ json: { email } }));
	const result = await run(sandbox, { parameters: enrich({ maxCredits: 200 }), inputItems });
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.email)).toEqual(emails);
	const stats = await keyStats(sandbox);
	expect(stats.requests['POST /v1/enrich']).toBe(130);
	expect(stats.http_429).toBe(0);
	expect(stats.credits_charged).toBe(130);
});

it('a person asked for by several items is one call, charged once, every item answered', async () => {
	const inputItems = Array.from({ length: 5 }, () => ({ json: { email: people[0].email } }));
	const result = await run(sandbox, { parameters: enrich(), inputItems });
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.id, item.pairedItem])).toEqual(
		inputItems.map((_, item) => [people[0].id, { item }]),
	);
	const stats = await keyStats(sandbox);
	expect(stats.requests['POST /v1/enrich']).toBe(1);
	expect(stats.credits_charged).toBe(1);
});
