/**
 * Every refusal the package writes before sending (issue 44, item 3) names the field as the editor
 * shows it and the value, and says what to type instead, with an example: "Limit: 0 is less than
 * 1; type a whole number of 1 or more, e.g. 100". The refusals are collected from the source (each
 * line that calls `refused(`, and Enrich's item with neither an email nor a LinkedIn URL); each
 * case below runs one in the engine, and the line that raised it is read from the error's stack,
 * so a refusal that no case reaches, or a new one, fails the count.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startTestSandbox } from '../../harness/sandbox';
import { readRepoFile, REPO_ROOT } from '../../support/files.cjs';
import { sourceFiles } from '../../support/sources.cjs';
import { contacts, keyStats, run, type RunOptions, type TestSandbox } from './setup';

/** "<file>:<line>" of each call of `refused(`, and of the one refusal written without it. */
function refusalSites(): string[] {
	return sourceFiles(['nodes']).flatMap((file) =>
		readRepoFile(file)
			.split('\n')
			.flatMap((line, index) => {
				const calls = /\brefused\(/.test(line) && !/function refused\(/.test(line);
				// Enrich's item with neither field names two parameters: written without `refused`.
				const person = file.endsWith('perItemReaders.ts') && /new OperationError\(/.test(line);
				return calls || person ? [`${file}:${index + 1}`] : [];
			}),
	);
}

/** The line that raised an error: its stack's first frame in the package outside `refused`. */
function siteOf(stack: string | undefined): string | undefined {
	const nodes = `${REPO_ROOT}/nodes/`;
	for (const frame of (stack ?? '').split('\n')) {
		const at =
			/^\s*at (\S+) .*?\((.+):(\d+):\d+\)$/.exec(frame) ?? /^\s*at ()(.+):(\d+):\d+$/.exec(frame);
		if (!at || !at[2].startsWith(nodes) || at[1] === 'refused') continue;
		return `${at[2].slice(REPO_ROOT.length + 1)}:${at[3]}`;
	}
	return undefined;
}

let sandbox: TestSandbox;
let id: string;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 1_000 });
	[{ id }] = await contacts(sandbox, 1);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const search = (parameters: IDataObject = {}): INodeParameters => ({
	resource: 'contact',
	operation: 'search',
	...parameters,
});
const other = (name: string, value: string) =>
	search({ filters: { otherFilters: { filter: [{ name, value }] } } });
const list = (operation: string, value: string, more: IDataObject = {}): INodeParameters => ({
	resource: 'savedList',
	operation,
	listId: { __rl: true, mode: 'id', value },
	...more,
});

interface Case {
	/** The start of the message: the field as the editor shows it, and the value. */
	says: RegExp;
	options: () => RunOptions;
	/** An AI agent's tool answers a refusal in an item, without a stack: the file of its one refusal. */
	file?: string;
}

const CASES: Case[] = [
	// values.ts
	{ says: /^Limit: 0 /, options: () => ({ parameters: search({ limit: 0 }) }) },
	{
		says: /^Keywords: \{"a":1\} /,
		options: () => ({ parameters: search({ filters: { keywords: '={{ { "a": 1 } }}' } }) }),
	},
	{
		says: /^Contact IDs: \(empty\) /,
		options: () => ({
			parameters: { resource: 'contact', operation: 'unlock', contactIds: ' , ', maxCredits: 5 },
			typeVersion: 1,
		}),
	},
	{
		says: /^Contact ID Field "id": "ct_x+… /,
		options: () => ({
			parameters: { resource: 'contact', operation: 'unlock', maxCredits: 5 },
			inputItems: [{ json: { id: `ct_${'x'.repeat(80)}` } }],
		}),
	},
	{
		says: /^Contact ID Field "id": "ls_123" /,
		options: () => ({
			parameters: { resource: 'contact', operation: 'unlock', maxCredits: 5 },
			inputItems: [{ json: { id: 'ls_123' } }],
		}),
	},
	{
		says: /^Countries: "USA" /,
		options: () => ({ parameters: search({ filters: { country: 'USA' } }) }),
	},
	{
		says: /^Other Filters by API Name › company_size: "25" /,
		options: () => ({ parameters: other('company_size', '25'), typeVersion: 2.2 }),
	},
	{
		says: /^Other Filters by API Name › hq_city: "x+… /,
		options: () => ({ parameters: other('hq_city', 'x'.repeat(10_001)), typeVersion: 2.2 }),
	},
	{
		says: /^Keywords: "a+… /,
		options: () => ({ parameters: search({ filters: { keywords: 'a'.repeat(1_001) } }) }),
	},
	{
		says: /^Email: "not an email" /,
		options: () => ({
			parameters: {
				resource: 'contact',
				operation: 'enrich',
				email: 'not an email',
				maxCredits: 5,
			},
			typeVersion: 1,
		}),
	},
	{
		says: /^Note: "n+… /,
		options: () => ({
			parameters: {
				resource: 'credits',
				operation: 'fileRefundClaim',
				reason: 'wrong_title',
				note: 'n'.repeat(2_001),
			},
			inputItems: [{ json: { id } }],
			typeVersion: 2.2,
		}),
	},
	// descriptions.ts
	{
		says: /^Saved List: "ls_x+… /,
		options: () => ({ parameters: list('get', `ls_${'x'.repeat(80)}`) }),
	},
	{
		says: /^Saved List: "my list" /,
		options: () => ({ parameters: list('get', '={{ "my list" }}') }),
	},
	{
		says: /^Return All: "yes" /,
		options: () => ({ parameters: search({ returnAll: '={{ "yes" }}' }) }),
	},
	{
		says: /^Level: "gold" /,
		options: () => ({
			parameters: {
				resource: 'contact',
				operation: 'unlock',
				level: '={{ "gold" }}',
				maxCredits: 5,
			},
			inputItems: [{ json: { id } }],
		}),
	},
	// readFilters.ts
	{
		says: /^Other Filters by API Name: \(empty\) /,
		options: () => ({ parameters: other(' ', 'x'), typeVersion: 2.2 }),
	},
	{
		says: /^Other Filters by API Name: "constructor" /,
		options: () => ({ parameters: other('constructor', 'x'), typeVersion: 2.2 }),
	},
	{
		says: /^Company Size \(Min\/Max Employees\): "500-10" /,
		options: () => ({
			parameters: search({ filters: { companySizeMin: 500, companySizeMax: 10 } }),
		}),
	},
	{
		says: /^Seniority: "boss" /,
		options: () => ({ parameters: search({ filters: { seniority: '={{ "boss" }}' } }) }),
	},
	{
		says: /^Additional Filters \(JSON\): "\{nope" /,
		options: () => ({ parameters: search({ filtersJson: '{nope' }), typeVersion: 1 }),
	},
	// perItemReaders.ts
	{
		says: /^Contact ID Field: \(empty\) /,
		options: () => ({
			parameters: { resource: 'contact', operation: 'unlock', contactIdField: ' ', maxCredits: 5 },
			inputItems: [{ json: { id } }],
		}),
	},
	{
		says: /^Contact ID Field: "id" /,
		options: () => ({
			parameters: { resource: 'contact', operation: 'unlock', maxCredits: 5 },
			inputItems: [{ json: { contact_id: id } }],
		}),
	},
	{
		says: /^Email Field "email" and LinkedIn URL Field "linkedin_url": /,
		options: () => ({
			parameters: { resource: 'contact', operation: 'enrich', maxCredits: 5 },
			inputItems: [{ json: { name: 'Ada' } }],
		}),
	},
	// toolAnswer.ts
	{
		says: /^Fields: \["nope"\] /,
		options: () => ({
			parameters: search({ output: 'selectedFields', outputFields: ['nope'] }),
			typeVersion: 2.1,
			asTool: true,
		}),
		file: 'nodes/ContactData/shared/agent/toolAnswer.ts',
	},
	// resources/savedList
	{
		says: /^Name: \(empty\) /,
		options: () => ({ parameters: { resource: 'savedList', operation: 'create', name: ' ' } }),
	},
	{
		says: /^Put Output File in Field: \(empty\) /,
		options: () => ({ parameters: list('export', 'ls_abc', { binaryPropertyName: ' ' }) }),
	},
	// resources/credits
	{
		says: /^Contact ID Field: \["ct_\w+","ct_\w+"\] /,
		options: () => ({
			parameters: { resource: 'credits', operation: 'fileRefundClaim', reason: 'wrong_title' },
			inputItems: [{ json: { id: `${id}, ${id}x` } }],
			typeVersion: 2.2,
		}),
	},
];

/** What to type instead, with an example or a size: "; type …, e.g. …" in the message. */
const SAYS_WHAT_TO_TYPE = /; (type|pick|give) [^;]*(\be\.g\. \S|at (most|least) \d)/;

describe('every refusal before sending', () => {
	const seen = new Map<string, string>();

	it.each(CASES.map((each) => [each.says.source, each]))(
		'%s… says what to type instead, with an example, and sends nothing',
		async (_, { says, options, file }) => {
			const result = await run(sandbox, options());
			const answered = result.items[0]?.json;
			const error = (result.error ?? {
				message: String(answered?.error),
				description: String(answered?.description),
			}) as { message: string; description?: string; stack?: string };
			const site = file
				? refusalSites().find((line) => line.startsWith(`${file}:`))
				: siteOf(error.stack);
			seen.set(site ?? '', error.message);
			expect(error.message).toMatch(says);
			expect(error.message).toMatch(SAYS_WHAT_TO_TYPE);
			expect(error.description).toMatch(/Nothing was sent\.$/);
			expect(Object.keys((await keyStats(sandbox)).requests)).toEqual([]);
			expect(site).toBeDefined();
		},
	);

	it('are the 22 refusals the source writes, each reached by a case', () => {
		const sites = refusalSites();
		expect(sites).toHaveLength(22);
		// A file named by a case has that one refusal.
		for (const { file } of CASES.filter((each) => each.file))
			expect(sites.filter((site) => site.startsWith(`${file}:`))).toHaveLength(1);
		expect([...seen.keys()].filter((site) => !sites.includes(site))).toEqual([]);
		expect(sites.filter((site) => !seen.has(site))).toEqual([]);
	});
});
