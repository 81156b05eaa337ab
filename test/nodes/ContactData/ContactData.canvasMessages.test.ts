/**
 * Short messages on the canvas, details below (issue 44, finding 4): an error the package writes
 * for the canvas says what happened and the first remedy in at most 120 characters, not counting a
 * quoted value or "[item N]"; the rest is its description. Collected by running each kind of error
 * the package writes: refusals before sending, the budget's, each answer of the API, a call that
 * never reaches it. As an AI agent's tool the message keeps every remedy: n8n passes a model only
 * an error's message (docs/node.md).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PATHS } from '../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../harness/sandbox';
import { closedPort } from '../../support/httpServer.cjs';
import { api, contacts, idItems, KEYS, run, type RunOptions, type TestSandbox } from './setup';

const CANVAS_MESSAGE_MAX = 120;

/** A message's length as the budget counts it: without quoted values and "[item N]". */
export const canvasLength = (message: string): number =>
	message
		.replace(/"[^"]*"/g, '')
		.replace(/ \[item \d+\]$/, '')
		.trim().length;

let sandbox: TestSandbox;
let ids: string[];
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 1_000 });
	ids = (await contacts(sandbox, 60)).map(({ id }) => id);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => {
	await sandbox.admin.reset();
	await sandbox.admin.clearFaults();
});

const unlock = (parameters: IDataObject = {}): INodeParameters => ({
	resource: 'contact',
	operation: 'unlock',
	...parameters,
});
const enrich = (parameters: IDataObject = {}): INodeParameters => ({
	resource: 'contact',
	operation: 'enrich',
	email: '={{ $json.email }}',
	...parameters,
});
const search = (parameters: IDataObject = {}): INodeParameters => ({
	resource: 'contact',
	operation: 'search',
	...parameters,
});
const listById = (operation: string, value: string, more: IDataObject = {}): INodeParameters => ({
	resource: 'savedList',
	operation,
	listId: { __rl: true, mode: 'id', value },
	...more,
});

interface Case {
	/** What goes wrong. */
	what: string;
	options: () => Promise<Omit<RunOptions, 'asTool'>> | Omit<RunOptions, 'asTool'>;
	/** Set up before the run: a fault, a claim already filed. */
	before?: () => Promise<void>;
}

const CASES: Case[] = [
	// The budget's.
	{
		what: 'Stop Before Spending: Max Credits too low',
		options: () => ({
			parameters: unlock({ maxCredits: 25 }),
			inputItems: idItems(ids.slice(0, 50)),
		}),
	},
	{
		what: 'Stop Before Spending: Enrich, Max Credits too low',
		options: () => ({
			parameters: enrich({ maxCredits: 1 }),
			inputItems: [{ json: { email: 'a@b.example' } }, { json: { email: 'c@d.example' } }],
		}),
	},
	{
		what: 'Stop Before Spending: Max Credits per Day',
		options: () => ({
			parameters: unlock({ maxCredits: 100, options: { maxCreditsPerDay: 3 } }),
			inputItems: idItems(ids.slice(0, 5)),
			nodeId: 'per-day',
		}),
	},
	{
		what: 'Max Credits reached during the run (the input called new contacts unlocked)',
		options: () => ({
			parameters: unlock({ maxCredits: 10 }),
			inputItems: ids.slice(0, 30).map((id) => ({ json: { id, unlocked: true } })),
		}),
	},
	// Refusals before sending.
	{
		what: 'an id that is not a contact id',
		options: () => ({ parameters: unlock({ maxCredits: 10 }), inputItems: idItems(['ls_123']) }),
	},
	{
		what: 'a Max Credits below 0',
		options: () => ({
			parameters: unlock({ maxCredits: -1 }),
			inputItems: idItems(ids.slice(0, 1)),
		}),
	},
	{
		what: 'an email that is not one',
		options: () => ({
			parameters: enrich({ maxCredits: 5 }),
			inputItems: [{ json: { email: 'not an email' } }],
		}),
	},
	{
		what: 'a company size whose minimum is above its maximum',
		options: () => ({
			parameters: search({ filters: { companySizeMin: 500, companySizeMax: 10 } }),
		}),
	},
	{
		what: 'a country that is not an ISO code',
		options: () => ({ parameters: search({ filters: { country: 'USA' } }) }),
	},
	{
		what: 'a saved list id that is not one',
		options: () => ({ parameters: listById('get', '={{ "not-a-list" }}') }),
	},
	// The API's answers.
	{
		what: '400: a filter the API does not know',
		options: () => ({
			parameters: search({
				additionalFilters: { filter: [{ name: 'annual_revenue', value: '1' }] },
			}),
		}),
	},
	{
		what: '401: a revoked key',
		options: () => ({ parameters: search(), key: KEYS.revoked }),
	},
	{
		what: '403: a key below the Growth tier',
		options: () => ({ parameters: search(), key: KEYS.starter }),
	},
	{
		what: '402: no credits left',
		options: () => ({
			parameters: unlock({ maxCredits: 10 }),
			inputItems: idItems(ids.slice(0, 2)),
			key: KEYS.empty,
		}),
	},
	{
		what: '404: no such saved list',
		options: () => ({ parameters: listById('get', 'ls_4f9c2a7d1b3e8f60') }),
	},
	{
		what: '404: Enrich finds no one',
		options: () => ({
			parameters: enrich({ maxCredits: 5 }),
			inputItems: [{ json: { email: 'nathan@example.com' } }],
		}),
	},
	{
		what: '409: a refund claim filed twice',
		before: async () => {
			await api(sandbox, 'POST', PATHS.unlock, { ids: [ids[0]] });
			await api(sandbox, 'POST', PATHS.creditsRefund, {
				contact_id: ids[0],
				reason: 'bounced_email',
			});
		},
		options: () => ({
			parameters: { resource: 'credits', operation: 'fileRefundClaim', reason: 'bounced_email' },
			inputItems: idItems([ids[0]]),
		}),
	},
	{
		what: '5xx on every try of a free call',
		before: () =>
			sandbox.admin.setFaults([{ route: `POST ${PATHS.search}`, kind: 'error', status: 503 }]),
		options: () => ({ parameters: search(), retryOnFail: undefined }),
	},
	{
		what: 'an unlock whose answer is lost',
		before: () => sandbox.admin.setFaults([{ route: `POST ${PATHS.unlock}`, kind: 'drop' }]),
		options: () => ({
			parameters: unlock({ maxCredits: 10 }),
			inputItems: idItems(ids.slice(0, 2)),
		}),
	},
	// Never reaching the API.
	{
		what: 'nothing answers at the Base URL',
		options: async () => ({
			parameters: search(),
			baseUrl: `http://127.0.0.1:${await closedPort()}`,
		}),
	},
	{
		what: 'a Base URL refused before sending',
		options: () => ({ parameters: search(), baseUrl: 'http://api.contactdata.example' }),
	},
];

/** The run's error: what ended it, or each error item's (with Continue On Fail, or a tool's answer). */
async function errorsOf(
	which: Case,
	asTool: boolean,
): Promise<Array<{ message: string; description: string }>> {
	await which.before?.();
	const result = await run(sandbox, { ...(await which.options()), asTool });
	const ended = result.error ? [result.error] : [];
	const items = result.items
		.map(({ json }) => json)
		.filter((json) => json.error !== undefined)
		.map((json) => ({ message: json.error, description: json.description }));
	return [...ended, ...items].map(({ message, description }) => ({
		message: String(message),
		description: String(description ?? ''),
	}));
}

const overBudget = (errors: Array<{ message: string }>) =>
	errors
		.filter(({ message }) => canvasLength(message) > CANVAS_MESSAGE_MAX)
		.map(({ message }) => `${canvasLength(message)}: ${message}`);

describe('on the canvas', () => {
	it('collects each kind of error the package writes', () => {
		expect(CASES).toHaveLength(21);
	});

	it.each(CASES.map((each) => [each.what, each]))(
		'%s: a message of at most 120 characters',
		async (_, which) => {
			const errors = await errorsOf(which, false);
			expect(errors.length).toBeGreaterThan(0);
			expect(overBudget(errors)).toEqual([]);
		},
	);

	it('over budget: what happened and the first remedy, every other remedy once, below', async () => {
		const [error] = await errorsOf(CASES[0], false);
		expect(error.message).toBe(
			'Max Credits of 25 is not enough for up to 50 credits, so nothing was sent. Raise Max Credits to 50.',
		);
		expect(canvasLength(error.message)).toBeLessThanOrEqual(CANVAS_MESSAGE_MAX);
		expect(error.description).toBe(
			'Unlocking 50 contacts at basic level could cost up to 50 credits. Nothing was charged. You can also ask for fewer contacts, or set When Max Credits Is Reached to Unlock What Fits. Unlock What Fits spends up to the budget and passes the rest through.',
		);
		// n8n's toast shows the message and the panel adds the description: no remedy twice.
		expect(error.description).not.toMatch(/raise Max Credits/i);
	});

	it('Max Credits reached during the run: what was charged and the remedy, what it holds back below', async () => {
		const reached = CASES.find(({ what }) => what.startsWith('Max Credits reached'))!;
		const [error] = await errorsOf(reached, false);
		expect(error.message).toBe(
			'Max Credits of 10 reached: 10 credits charged; 20 contacts not sent. Raise Max Credits and run again.',
		);
		expect(error.description).toBe(
			'This run: 10 credits charged. Contacts already unlocked come back free.',
		);
	});
});

describe('as an AI agent’s tool', () => {
	/** A tool reads its contact ids from the agent's arguments; here from each item. */
	const toolCase = (maxCredits: number, options: IDataObject = {}, nodeId?: string): Case => ({
		what: 'a tool call over budget',
		options: () => ({
			parameters: unlock({ contactIds: '={{ $json.id }}', maxCredits, options }),
			inputItems: idItems(ids.slice(0, 50)),
			nodeId,
		}),
	});

	it('over budget: the message holds every remedy, since a model reads only the message', async () => {
		const [error] = await errorsOf(toolCase(25), true);
		expect(error.message).toBe(
			'Max Credits of 25 is not enough: unlocking 50 contacts at basic level could cost up to 50 credits. Nothing was sent and nothing was charged. Ask for fewer contacts, raise Max Credits to 50, or set When Max Credits Is Reached to Unlock What Fits.',
		);
	});

	it('over budget per day: fewer contacts, the next day, or a higher cap, all in the message', async () => {
		const [error] = await errorsOf(toolCase(100, { maxCreditsPerDay: 3 }, 'tool-per-day'), true);
		expect(error.message).toMatch(
			/Nothing was sent and nothing was charged\. Ask for fewer contacts, wait for the next day \(UTC\), or raise Max Credits per Day to 50\.$/,
		);
	});
});
