/**
 * One contract: the API's paths, id prefixes and id patterns are written in contract.ts alone. The
 * nodes, the triggers, the credential and the sandbox read them from there; a literal copy anywhere
 * else (in code, not in comments) fails here with its file and line.
 */
import { API_PREFIX, ID_PREFIXES, WEBHOOKS } from '../nodes/ContactData/shared/client/contract';
import { readRepoFile } from './support/files.cjs';
import { literalsOf, prefixPatternsOf, sourceFiles, type Literal } from './support/sources.cjs';

const CONTRACT = 'nodes/ContactData/shared/client/contract.ts';
const PACKAGE_SOURCE = sourceFiles(['nodes', 'credentials', 'sandbox']);

/** A path of the API (`/v1/...`), also as a regular expression writes it (`\/+v1`). */
const API_PATH = new RegExp(`/\\+?${API_PREFIX.slice(1)}(?![\\w,.])`);
/** An id prefix at the start of a word (`ls_`, `^ct_`, `"wh_`), or the webhook secret's. */
const ID_PREFIX = new RegExp(`\\b(${[...Object.values(ID_PREFIXES), WEBHOOKS.secretPrefix].join('|')})`);

function copiesIn(file: string, pattern: RegExp): string[] {
	return literalsOf(file)
		.filter((literal: Literal) => pattern.test(literal.text.replace(/\\\//g, '/')))
		.map((literal) => `${file}:${literal.line} ${JSON.stringify(literal.text)}`);
}

it('reads the package’s source: the nodes, the credential and the sandbox, contract.ts among them', () => {
	expect(PACKAGE_SOURCE).toContain(CONTRACT);
	expect(PACKAGE_SOURCE).toContain('credentials/ContactDataApi.credentials.ts');
	expect(PACKAGE_SOURCE).toContain('nodes/ContactDataTrigger/parameters.ts');
	expect(PACKAGE_SOURCE.some((file) => file.startsWith('sandbox/routes/'))).toBe(true);
});

it('finds the paths and id prefixes where they are written: in contract.ts', () => {
	expect(copiesIn(CONTRACT, API_PATH).length).toBeGreaterThan(0);
	expect(copiesIn(CONTRACT, ID_PREFIX).length).toBeGreaterThanOrEqual(Object.keys(ID_PREFIXES).length);
});

it('no path of the API is written outside contract.ts', () => {
	const copies = PACKAGE_SOURCE.filter((file) => file !== CONTRACT).flatMap((file) => copiesIn(file, API_PATH));
	expect(copies).toEqual([]);
});

it('no id prefix or id pattern is written outside contract.ts', () => {
	const copies = PACKAGE_SOURCE.filter((file) => file !== CONTRACT).flatMap((file) => copiesIn(file, ID_PREFIX));
	expect(copies).toEqual([]);
});

it('no id pattern is built from an id prefix outside contract.ts (LIST_ID_PATTERN and its kin are the contract’s)', () => {
	expect(prefixPatternsOf(CONTRACT).map((pattern) => pattern.text)).toContain('`^${ID_PREFIXES.list}[A-Za-z0-9_-]+$`');
	const own = PACKAGE_SOURCE.filter((file) => file !== CONTRACT).flatMap((file) =>
		prefixPatternsOf(file).map((pattern) => `${file}:${pattern.line} ${pattern.text}`),
	);
	expect(own).toEqual([]);
});

it('contract.ts names the document it is the code form of, and that document exists', () => {
	const header = /^\/\*\*[\s\S]*?\*\//.exec(readRepoFile(CONTRACT))?.[0] ?? '';
	const named = /`([\w./-]+\.md)`/.exec(header)?.[1];
	expect(named).toBe('docs/contract.md');
	expect(readRepoFile(String(named))).toMatch(/^# /m);
});
