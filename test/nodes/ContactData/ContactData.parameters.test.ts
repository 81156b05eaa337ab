/**
 * Fuzzed parameters: bad values, typed or from expressions, driven through the real engine for every
 * operation. Each must be refused before any request, with a message that names the parameter as the
 * editor shows it and the value refused, and never raw zod output. A few values are valid in form and
 * are sent by design (a filter the node does not know, a well-formed list id); their API errors must
 * still name the parameter. Then a matrix of hostile values for every parameter: whatever happens,
 * no request leaves the operation's own endpoints and no message carries zod output.
 *
 * Requests are counted by a recording proxy in front of the sandbox, so a request to a path the
 * sandbox does not route (`DELETE /v1/contacts`) is counted too.
 */

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startTestSandbox } from '../../harness/sandbox';
import { envVar } from '../../support/env.cjs';
import { listenLocally, type LocalServer } from '../../support/httpServer.cjs';
import { startRecordingProxy } from '../../support/recordingProxy.cjs';
import { report } from '../../support/report.cjs';
import { contacts, hints, run, type TestSandbox } from './setup';

/** Every request sent through it ("METHOD /path?query"), forwarded to the sandbox. */
const sent: string[] = [];
let proxy: LocalServer | undefined;
let proxyUrl: string;

let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 2_000 });
	proxy = await startRecordingProxy(() => sandbox.url, sent);
	proxyUrl = proxy.url;
});
afterAll(async () => {
	await proxy?.close();
	await sandbox?.close();
});

/** Runs the node against the sandbox through the recording proxy; a thrown engine error is the run's error. */
async function fuzzRun(parameters: Parameters, input?: IDataObject[], typeVersion?: number) {
	const before = sent.length;
	const result = await run(sandbox, {
		parameters,
		inputItems: input?.map((json) => ({ json })),
		baseUrl: proxyUrl,
		typeVersion,
	}).catch((error: Error) => ({
		error: { name: error.name, message: error.message, description: null },
		items: [],
	}));
	return { error: result.error, items: result.items, requests: sent.slice(before) };
}

type Parameters = INodeParameters;

interface Case {
	/** Resource and operation, then the parameters under test. */
	parameters: Parameters;
	/** The parameter as the editor shows it. */
	display: string;
	/** How the refused value appears in the message. */
	value: string;
	input?: IDataObject[];
	/** Valid in form: sent by design, refused by the API. */
	sent?: true;
	/** 1 for a parameter only version 1 has; the node's default version otherwise. */
	typeVersion?: 1;
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const op = (resource: string, operation: string, parameters: Parameters): Parameters => ({
	resource,
	operation,
	...parameters,
});
const search = (parameters: Parameters) => op('contact', 'search', parameters);
const filters = (named: Parameters) => search({ filters: named, limit: 5 });
/** Contact IDs, Email and LinkedIn URL take their values from expressions: version 2's "An Expression". */
const byExpression = { contactIdsFrom: 'expression' };
const list = (operation: string, parameters: Parameters) =>
	op(
		'savedList',
		operation,
		'contactIds' in parameters ? { ...byExpression, ...parameters } : parameters,
	);
const unlock = (parameters: Parameters) =>
	op('contact', 'unlock', {
		...byExpression,
		contactIds: 'ct_0000001',
		level: 'basic',
		maxCredits: 10,
		...parameters,
	});
const enrich = (parameters: Parameters) =>
	op('contact', 'enrich', {
		personFrom: 'expression',
		email: 'ada@example.com',
		level: 'basic',
		maxCredits: 10,
		...parameters,
	});
const refund = (parameters: Parameters) =>
	op('credits', 'fileRefundClaim', {
		contactId: 'ct_0000001',
		reason: 'bounced_email',
		...parameters,
	});

const CASES: Case[] = [
	// Search: limits and booleans
	{ parameters: search({ limit: 0 }), display: 'Limit', value: '0' },
	{ parameters: search({ limit: -1 }), display: 'Limit', value: '-1' },
	{ parameters: search({ limit: '={{ "abc" }}' }), display: 'Limit', value: 'abc' },
	{ parameters: search({ limit: 2.5 }), display: 'Limit', value: '2.5' },
	{ parameters: search({ limit: '={{ null }}' }), display: 'Limit', value: 'null' },
	{ parameters: search({ returnAll: '={{ "yes" }}' }), display: 'Return All', value: 'yes' },
	{ parameters: search({ returnAll: '={{ 1 }}' }), display: 'Return All', value: '1' },
	// Search: keywords that are not text
	{ parameters: filters({ keywords: '={{ { "a": 1 } }}' }), display: 'Keywords', value: '{"a":1}' },
	{
		parameters: filters({ keywords: '={{ ["cto", "berlin"] }}' }),
		display: 'Keywords',
		value: '["cto","berlin"]',
	},
	{ parameters: filters({ keywords: '={{ true }}' }), display: 'Keywords', value: 'true' },
	// Search: objects and bad entries in list filters
	{
		parameters: filters({ title: '={{ [{ "a": 1 }] }}' }),
		display: 'Job Titles',
		value: '{"a":1}',
	},
	{ parameters: filters({ title: '={{ { "a": 1 } }}' }), display: 'Job Titles', value: '{"a":1}' },
	{
		parameters: filters({ department: '={{ [{ "name": "sales" }] }}' }),
		display: 'Departments',
		value: '{"name":"sales"}',
	},
	{ parameters: filters({ industry: '={{ [[{}]] }}' }), display: 'Industries', value: '{}' },
	{
		parameters: filters({ techStack: '={{ { "x": true } }}' }),
		display: 'Tech Stack',
		value: '{"x":true}',
	},
	{
		parameters: filters({ country: '={{ [{ "code": "US" }] }}' }),
		display: 'Countries',
		value: '{"code":"US"}',
	},
	{ parameters: filters({ country: 'USA' }), display: 'Countries', value: 'USA' },
	{
		parameters: filters({ country: '={{ ["DE", "Germany"] }}' }),
		display: 'Countries',
		value: 'Germany',
	},
	{ parameters: filters({ seniority: '={{ "ceo" }}' }), display: 'Seniority', value: 'ceo' },
	{ parameters: filters({ seniority: '={{ [{}] }}' }), display: 'Seniority', value: '{}' },
	{
		parameters: filters({ fundingStage: '={{ "series z" }}' }),
		display: 'Funding Stage',
		value: 'series z',
	},
	// Search: company size
	{
		parameters: filters({ companySizeMin: -5 }),
		display: 'Company Size (Min Employees)',
		value: '-5',
	},
	{
		parameters: filters({ companySizeMin: '={{ "abc" }}' }),
		display: 'Company Size (Min Employees)',
		value: 'abc',
	},
	{
		parameters: filters({ companySizeMax: 10.5 }),
		display: 'Company Size (Max Employees)',
		value: '10.5',
	},
	{
		parameters: filters({ companySizeMax: '={{ {} }}' }),
		display: 'Company Size (Max Employees)',
		value: '{}',
	},
	{
		parameters: filters({ companySizeMin: 500, companySizeMax: 10 }),
		display: 'Company Size',
		value: '500',
	},
	// Search: further filters (Additional Filters (JSON) is version 1's only)
	{
		parameters: search({ filtersJson: '[1, 2]' }),
		display: 'Additional Filters (JSON)',
		value: '[1,2]',
		typeVersion: 1,
	},
	{
		parameters: search({ filtersJson: '{"title": ' }),
		display: 'Additional Filters (JSON)',
		value: '{"title": ',
		typeVersion: 1,
	},
	{
		parameters: search({ filtersJson: '{"seniority": "boss"}' }),
		display: 'Additional Filters (JSON)',
		value: 'boss',
		typeVersion: 1,
	},
	{
		parameters: search({ filtersJson: '{"company_size": 50}' }),
		display: 'Additional Filters (JSON)',
		value: '50',
		typeVersion: 1,
	},
	{
		parameters: search({ additionalFilters: { filter: [{ name: '', value: '1' }] } }),
		display: 'Additional Filters',
		value: 'empty',
	},
	{
		parameters: search({
			additionalFilters: { filter: [{ name: 'country', value: '["Germany"]' }] },
		}),
		display: 'Additional Filters',
		value: 'Germany',
	},
	{
		parameters: search({
			additionalFilters: { filter: [{ name: 'annual_revenue', value: '={{ { "a": 1 } }}' }] },
		}),
		display: 'annual_revenue',
		value: 'annual_revenue',
		sent: true,
	},

	// Saved lists: ids
	{ parameters: list('get', { listId: byId('={{ ".." }}') }), display: 'Saved List', value: '..' },
	{
		parameters: list('delete', { listId: byId('={{ ".." }}') }),
		display: 'Saved List',
		value: '..',
	},
	{
		parameters: list('delete', { listId: byId('={{ "" }}') }),
		display: 'Saved List',
		value: 'empty',
	},
	{
		parameters: list('delete', { listId: byId('={{ null }}') }),
		display: 'Saved List',
		value: 'null',
	},
	{
		parameters: list('delete', { listId: byId('={{ { "id": "ls_1" } }}') }),
		display: 'Saved List',
		value: '{"id":"ls_1"}',
	},
	{
		parameters: list('delete', { listId: byId('={{ "ls_a/../../contacts" }}') }),
		display: 'Saved List',
		value: 'ls_a/../../contacts',
	},
	{
		parameters: list('delete', { listId: byId('={{ "ls_" }}') }),
		display: 'Saved List',
		value: 'ls_',
	},
	{
		parameters: list('get', { listId: byId('={{ "ls_ab?cd" }}') }),
		display: 'Saved List',
		value: 'ls_ab?cd',
	},
	{
		parameters: list('removeContacts', { listId: byId('={{ ".." }}'), contactIds: 'ct_0000001' }),
		display: 'Saved List',
		value: '..',
	},
	{
		parameters: list('addContacts', {
			listId: byId('={{ "../contacts" }}'),
			contactIds: 'ct_0000001',
		}),
		display: 'Saved List',
		value: '../contacts',
	},
	{ parameters: list('export', { listId: byId('={{ 42 }}') }), display: 'Saved List', value: '42' },
	{
		parameters: list('get', { listId: byId('ls_doesnotexist') }),
		display: 'Saved List',
		value: 'ls_doesnotexist',
		sent: true,
	},
	// Saved lists: other parameters
	{ parameters: list('getMany', { limit: 0 }), display: 'Limit', value: '0' },
	{ parameters: list('getMany', { limit: '={{ "ten" }}' }), display: 'Limit', value: 'ten' },
	{ parameters: list('getMany', { returnAll: '={{ "no" }}' }), display: 'Return All', value: 'no' },
	{
		parameters: list('create', { name: '={{ "" }}', createFrom: 'filters' }),
		display: 'Name',
		value: 'empty',
	},
	{
		parameters: list('create', { name: 'x'.repeat(201), createFrom: 'filters' }),
		display: 'Name',
		value: 'xxxxx',
	},
	{
		parameters: list('create', { name: '={{ { "a": 1 } }}', createFrom: 'filters' }),
		display: 'Name',
		value: '{"a":1}',
	},
	{
		parameters: list('create', { name: 'Leads', createFrom: '={{ "ids" }}' }),
		display: 'Create From',
		value: 'ids',
	},
	{
		parameters: list('create', {
			name: 'Leads',
			createFrom: 'filters',
			filters: { seniority: '={{ "boss" }}' },
		}),
		display: 'Seniority',
		value: 'boss',
	},
	{
		parameters: list('create', {
			name: 'Leads',
			createFrom: 'contactIds',
			contactIds: '={{ "abc" }}',
		}),
		display: 'Contact IDs',
		value: 'abc',
	},
	{
		parameters: list('addContacts', {
			listId: byId('ls_abc'),
			contactIds: '={{ { "name": "Ada" } }}',
		}),
		display: 'Contact IDs',
		value: '{"name":"Ada"}',
	},
	{
		parameters: list('export', { listId: byId('ls_abc'), outputAs: '={{ "pdf" }}' }),
		display: 'Output As',
		value: 'pdf',
	},
	{
		parameters: list('export', { listId: byId('ls_abc'), format: '={{ "xml" }}' }),
		display: 'Format',
		value: 'xml',
	},
	{
		parameters: list('export', { listId: byId('ls_abc'), fields: '={{ [{}] }}' }),
		display: 'Fields',
		value: '{}',
	},
	{
		parameters: list('export', { listId: byId('ls_abc'), binaryPropertyName: '={{ "" }}' }),
		display: 'Put Output File in Field',
		value: 'empty',
	},

	// Unlock
	{ parameters: unlock({ level: '={{ "gold" }}' }), display: 'Level', value: 'gold' },
	{ parameters: unlock({ maxCredits: '={{ "abc" }}' }), display: 'Max Credits', value: 'abc' },
	{ parameters: unlock({ maxCredits: -1 }), display: 'Max Credits', value: '-1' },
	{
		parameters: unlock({ options: { skipAlreadyUnlocked: '={{ "yes" }}' } }),
		display: 'Skip Already Unlocked',
		value: 'yes',
	},
	{ parameters: unlock({ contactIds: '={{ {} }}' }), display: 'Contact IDs', value: '{}' },
	{ parameters: unlock({ contactIds: '={{ [null] }}' }), display: 'Contact IDs', value: 'empty' },
	{ parameters: unlock({ contactIds: 'abc' }), display: 'Contact IDs', value: 'abc' },

	// Enrich
	{ parameters: enrich({ level: '={{ "gold" }}' }), display: 'Level', value: 'gold' },
	{ parameters: enrich({ maxCredits: '={{ "lots" }}' }), display: 'Max Credits', value: 'lots' },
	{ parameters: enrich({ email: '={{ { "a": 1 } }}' }), display: 'Email', value: '{"a":1}' },
	{ parameters: enrich({ email: 'ada at example' }), display: 'Email', value: 'ada at example' },
	{
		parameters: enrich({ email: '', linkedinUrl: 'linkedin.com/in/ada' }),
		display: 'LinkedIn URL',
		value: 'linkedin.com/in/ada',
	},
	{ parameters: enrich({ email: '', linkedinUrl: '' }), display: 'Email', value: 'empty' },
	{
		parameters: enrich({ options: { outputNoMatch: '={{ "false" + "y" }}' } }),
		display: 'Output No-Match Items',
		value: 'falsey',
	},

	// Credits
	{ parameters: refund({ contactId: 'abc' }), display: 'Contact ID', value: 'abc' },
	{
		parameters: refund({ contactId: '={{ { "id": 1 } }}' }),
		display: 'Contact ID',
		value: '{"id":1}',
	},
	{ parameters: refund({ reason: '={{ "angry" }}' }), display: 'Reason', value: 'angry' },
	{ parameters: refund({ note: 'n'.repeat(2001) }), display: 'Note', value: 'nnnnn' },
];

/** What zod prints when a ZodError's message reaches a user. */
const ZOD_OUTPUT =
	/"code":\s*"(invalid_\w+|too_\w+|custom|unrecognized_keys|not_\w+)"|"path":\s*\[|invalid_type|invalid_enum_value|Expected \w+, received|\[object Object\]/;

interface Outcome {
	index: number;
	requests: number;
	error: { name?: unknown; message?: string; description?: string | null } | undefined;
}

const outcomes: Outcome[] = [];

beforeAll(async () => {
	for (const [index, entry] of CASES.entries()) {
		const { error, requests } = await fuzzRun(entry.parameters, entry.input, entry.typeVersion);
		outcomes.push({ index, requests: requests.length, error });
	}
	const refused = outcomes.filter((outcome) => outcome.error && outcome.requests === 0).length;
	const reached = outcomes.filter((outcome) => outcome.requests > 0).length;
	// The figures the issue asks for.
	report(
		`parameter fuzz: ${CASES.length} cases, ${refused} refused before sending, ${reached} reached the API`,
	);
}, 300_000);

const label = (entry: Case) =>
	`${String(entry.parameters.resource)}.${String(entry.parameters.operation)} ${entry.display} = ${entry.value}`;

describe.each(CASES.map((entry, index) => [label(entry), index] as const))('%s', (_name, index) => {
	const entry = CASES[index];
	const outcome = () => outcomes[index];

	it('fails with a message naming the parameter and the value, without zod output', () => {
		const { error } = outcome();
		expect(error).toBeDefined();
		const text = `${error?.message ?? ''}\n${error?.description ?? ''}`;
		expect(error?.message).toContain(entry.display);
		expect(error?.message).toContain(entry.value);
		expect(text).not.toMatch(ZOD_OUTPUT);
		// One input item: no item number in the message.
		expect(error?.message).not.toMatch(/\[item \d+\]/);
	});

	if (entry.sent) {
		it('is valid in form, so it is sent and the API refuses it', () => {
			expect(outcome().requests).toBeGreaterThan(0);
			expect(outcome().error?.name).toBe('NodeApiError');
		});
	} else {
		it('is refused before any request', () => {
			expect(outcome().requests).toBe(0);
			expect(outcome().error?.name).toBe('NodeOperationError');
		});
	}
});

it('names the item only when there is more than one', async () => {
	const result = await run(sandbox, {
		parameters: search({ limit: '={{ $json.limit }}' }),
		inputItems: [{ json: { limit: 5 } }, { json: { limit: 0 } }],
	});
	expect(result.error?.message).toMatch(/^Limit: 0 .*\[item 1\]$/);
});

describe('the Base URL as people paste it', () => {
	const balance = { resource: 'credits', operation: 'getBalance' };

	it.each(['/v1', '/v1/', '/V1//'])(
		'drops a trailing %s: the calls go to /v1/…, not /v1/v1/…',
		async (suffix) => {
			const result = await run(sandbox, {
				parameters: balance,
				baseUrl: `${sandbox.url}${suffix}`,
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toHaveProperty('balance');
		},
	);

	it.each(['?region=eu', '/?x=1', '#top'])(
		'refuses a query or fragment (%s) before any request, naming it',
		async (tail) => {
			const before = (await sandbox.admin.stats()).requests_total as number;
			const result = await run(sandbox, { parameters: balance, baseUrl: `${sandbox.url}${tail}` });
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toContain(`Base URL "${sandbox.url}${tail}" is refused`);
			expect(result.error?.message).toMatch(/no query \(\?…\) or fragment \(#…\)/);
			expect((await sandbox.admin.stats()).requests_total).toBe(before);
		},
	);
});

it('a message leaving the node from anywhere names no item when there is one (the Max Credits check)', async () => {
	const [person] = await contacts(sandbox, 1);
	const result = await run(sandbox, {
		parameters: unlock({ contactIds: person.id, maxCredits: 0 }),
	});
	expect(result.error?.message).toMatch(/Max Credits/);
	expect(result.error?.message).not.toMatch(/\[item \d+\]/);
});

it('counts in words: "1 unique contact", "1 credit", not "1 unique contacts", "1 credits"', async () => {
	const [person] = await contacts(sandbox, 1);
	const result = await run(sandbox, { parameters: unlock({ contactIds: person.id }) });
	expect(result.error).toBeUndefined();
	expect(hints(result).join('\n')).toMatch(
		/^Unlocked 1 unique contact \(basic\): 1 credit charged of a 10 budget\./,
	);
});

it('an export answered 202 without a download URL names what is missing, not zod’s output', async () => {
	// An API that starts a large export but answers without `url`.
	const server = await listenLocally((_req, res) => {
		res.writeHead(202, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ format: 'csv', contact_count: 200000 }));
	});
	try {
		const result = await run(sandbox, {
			parameters: list('export', { listId: byId('ls_abc') }),
			baseUrl: server.url,
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'The API answered the export of a large list without a usable `url`, `expires_at`',
		);
		expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(ZOD_OUTPUT);
	} finally {
		await server.close();
	}
});

/** The requests each operation may send: its own endpoints, with a well-formed list id. */
const LIST = 'ls_[A-Za-z0-9_-]+';
const ENDPOINTS: Record<string, RegExp> = {
	'contact.search': /^POST \/v1\/search$/,
	'contact.unlock': /^POST \/v1\/unlock$/,
	'contact.enrich': /^POST \/v1\/enrich$/,
	'savedList.get': new RegExp(`^GET /v1/lists/${LIST}$`),
	'savedList.delete': new RegExp(`^DELETE /v1/lists/${LIST}$`),
	'savedList.getMany': /^GET \/v1\/lists(\?.*)?$/,
	'savedList.create': new RegExp(`^POST /v1/lists(/${LIST}/contacts)?$`),
	'savedList.addContacts': new RegExp(`^POST /v1/lists/${LIST}/contacts$`),
	'savedList.removeContacts': new RegExp(`^DELETE /v1/lists/${LIST}/contacts$`),
	'savedList.export': new RegExp(
		`^(POST /v1/lists/${LIST}/export|GET /v1/lists/${LIST}|GET /v1/exports/\\S+)$`,
	),
	'credits.fileRefundClaim': /^POST \/v1\/credits\/refund$/,
};

/** Every parameter, as the editor shows it, with the parameters that put a value in it (and 1 for version 1's only). */
const SLOTS: Array<[display: string, build: (value: string) => Parameters, typeVersion?: 1]> = [
	['Limit', (value) => search({ limit: value })],
	['Return All', (value) => search({ returnAll: value, limit: 1 })],
	['Job Titles', (value) => filters({ title: value })],
	['Seniority', (value) => filters({ seniority: value })],
	['Industries', (value) => filters({ industry: value })],
	['Departments', (value) => filters({ department: value })],
	['Tech Stack', (value) => filters({ techStack: value })],
	['Countries', (value) => filters({ country: value })],
	['Funding Stage', (value) => filters({ fundingStage: value })],
	['Keywords', (value) => filters({ keywords: value })],
	['Company Size (Min Employees)', (value) => filters({ companySizeMin: value })],
	['Company Size (Max Employees)', (value) => filters({ companySizeMax: value })],
	[
		'Additional Filters',
		(value) => search({ additionalFilters: { filter: [{ name: value, value: '1' }] }, limit: 1 }),
	],
	['Additional Filters (JSON)', (value) => search({ filtersJson: value, limit: 1 }), 1],
	['Saved List', (value) => list('get', { listId: byId(value) })],
	['Saved List', (value) => list('delete', { listId: byId(value) })],
	['Saved List', (value) => list('addContacts', { listId: byId(value), contactIds: 'ct_0000001' })],
	[
		'Saved List',
		(value) => list('removeContacts', { listId: byId(value), contactIds: 'ct_0000001' }),
	],
	['Saved List', (value) => list('export', { listId: byId(value), outputAs: 'items' })],
	['Contact IDs', (value) => list('addContacts', { listId: byId('ls_abc'), contactIds: value })],
	[
		'Contact IDs',
		(value) => list('create', { name: 'Fuzz', createFrom: 'contactIds', contactIds: value }),
	],
	['Limit', (value) => list('getMany', { limit: value })],
	['Return All', (value) => list('getMany', { returnAll: value, limit: 1 })],
	[
		'Name',
		(value) =>
			list('create', { name: value, createFrom: 'filters', filters: { seniority: ['owner'] } }),
	],
	['Create From', (value) => list('create', { name: 'Fuzz', createFrom: value })],
	['Output As', (value) => list('export', { listId: byId('ls_abc'), outputAs: value })],
	['Format', (value) => list('export', { listId: byId('ls_abc'), format: value })],
	['Fields', (value) => list('export', { listId: byId('ls_abc'), fields: value })],
	[
		'Put Output File in Field',
		(value) => list('export', { listId: byId('ls_abc'), binaryPropertyName: value }),
	],
	['Contact IDs', (value) => unlock({ contactIds: value })],
	['Level', (value) => unlock({ level: value })],
	['Max Credits', (value) => unlock({ maxCredits: value })],
	['Skip Already Unlocked', (value) => unlock({ options: { skipAlreadyUnlocked: value } })],
	['Email', (value) => enrich({ email: value })],
	['LinkedIn URL', (value) => enrich({ email: '', linkedinUrl: value })],
	['Level', (value) => enrich({ level: value })],
	['Max Credits', (value) => enrich({ maxCredits: value })],
	['Output No-Match Items', (value) => enrich({ options: { outputNoMatch: value } })],
	['Contact ID', (value) => refund({ contactId: value })],
	['Reason', (value) => refund({ reason: value })],
	['Note', (value) => refund({ note: value })],
];

/** Hostile values, all from expressions (typed values are checked by the editor as well). */
const HOSTILE = [
	'{}',
	'[{}]',
	'{ "id": ".." }',
	'null',
	'""',
	'"   "',
	'".."',
	'"../contacts"',
	'"ls_a/../../contacts"',
	'"%2e%2e"',
	'-1',
	'1.5',
	'1e21',
	'true',
	'"abc"',
	'[]',
	'[1, [2, {}]]',
	'"x".repeat(300)',
	'"a,b"',
	'"<script>"',
].map((value) => `={{ ${value} }}`);

interface MatrixOutcome {
	slot: string;
	value: string;
	requests: string[];
	error: { name?: unknown; message?: string; description?: string | null } | undefined;
}

describe('a matrix of hostile values for every parameter', () => {
	const matrix: MatrixOutcome[] = [];
	const where = (entry: MatrixOutcome) => `${entry.slot} = ${entry.value}`;

	beforeAll(async () => {
		for (const [display, build, typeVersion] of SLOTS) {
			for (const value of HOSTILE) {
				const parameters = build(value);
				const { error, requests } = await fuzzRun(parameters, undefined, typeVersion);
				matrix.push({
					slot: `${String(parameters.resource)}.${String(parameters.operation)} ${display}`,
					value,
					requests,
					error,
				});
			}
		}
		const refused = matrix.filter((entry) => entry.error && entry.requests.length === 0).length;
		const reached = matrix.filter((entry) => entry.requests.length > 0).length;
		const apiRefused = matrix.filter((entry) => entry.requests.length > 0 && entry.error).length;
		if (envVar('FUZZ_DUMP')) {
			for (const entry of matrix.filter((candidate) => candidate.requests.length > 0)) {
				report(
					`${where(entry)} -> ${entry.requests.join(', ')} ${entry.error ? `${String(entry.error.name)}: ${entry.error.message}` : 'ok'}`,
				);
			}
		}
		report(
			`parameter matrix: ${matrix.length} runs (${SLOTS.length} parameters × ${HOSTILE.length} values), ${refused} refused before sending, ${reached} reached the API (${apiRefused} of them refused by it, ${reached - apiRefused} valid in form and run)`,
		);
	}, 600_000);

	it('sends nothing outside the operation’s own endpoints', () => {
		const strays = matrix.flatMap((entry) => {
			const endpoint = ENDPOINTS[entry.slot.split(' ')[0]];
			return entry.requests
				.filter((sentRequest) => !endpoint.test(sentRequest))
				.map((sentRequest) => `${where(entry)}: ${sentRequest}`);
		});
		expect(strays).toEqual([]);
	});

	it('never shows zod output or "[object Object]"', () => {
		const leaks = matrix
			.filter((entry) =>
				ZOD_OUTPUT.test(`${entry.error?.message ?? ''} ${entry.error?.description ?? ''}`),
			)
			.map((entry) => `${where(entry)}: ${entry.error?.message}`);
		expect(leaks).toEqual([]);
	});

	it('a value refused before sending is refused by its parameter’s name', () => {
		const unnamed = matrix
			.filter((entry) => entry.error && entry.requests.length === 0)
			.filter(
				(entry) => !entry.error?.message?.includes(entry.slot.slice(entry.slot.indexOf(' ') + 1)),
			)
			.map((entry) => `${where(entry)}: ${entry.error?.name} ${entry.error?.message}`);
		expect(unnamed).toEqual([]);
	});

	it('every refusal before sending is a NodeOperationError', () => {
		const others = matrix
			.filter(
				(entry) =>
					entry.error && entry.requests.length === 0 && entry.error.name !== 'NodeOperationError',
			)
			.map((entry) => `${where(entry)}: ${entry.error?.name} ${entry.error?.message}`);
		expect(others).toEqual([]);
	});
});
