/**
 * One contract: the API's paths, id prefixes and id patterns are written in the contract alone (the
 * folder shared/client/contract/, one file a part, imported through its index.ts). The
 * nodes, the triggers, the credential and the sandbox read them from there; a literal copy anywhere
 * else (in code, not in comments) fails here with its file and line.
 */
import {
	API_PREFIX,
	ID_PREFIXES,
	WEBHOOKS,
} from '../../../../../nodes/ContactData/shared/client/contract';
import { readRepoFile } from '../../../../support/files.cjs';
import {
	literalsOf,
	prefixPatternsOf,
	sourceFiles,
	type Literal,
} from '../../../../support/sources.cjs';

const CONTRACT_FOLDER = 'nodes/ContactData/shared/client/contract';
/** The module everything imports the contract from; its header names the document. */
const CONTRACT = `${CONTRACT_FOLDER}/index.ts`;
const CONTRACT_FILES = sourceFiles([CONTRACT_FOLDER]);
const PACKAGE_SOURCE = sourceFiles(['nodes', 'credentials', 'sandbox']);
const OUTSIDE_CONTRACT = PACKAGE_SOURCE.filter((file) => !CONTRACT_FILES.includes(file));

/** A path of the API (`/v1/...`), also as a regular expression writes it (`\/+v1`). */
const API_PATH = new RegExp(`/\\+?${API_PREFIX.slice(1)}(?![\\w,.])`);
/** An id prefix at the start of a word (`ls_`, `^ct_`, `"wh_`), or the webhook secret's. */
const ID_PREFIX = new RegExp(
	`\\b(${[...Object.values(ID_PREFIXES), WEBHOOKS.secretPrefix].join('|')})`,
);

function copiesIn(file: string, pattern: RegExp): string[] {
	return literalsOf(file)
		.filter((literal: Literal) => pattern.test(literal.text.replace(/\\\//g, '/')))
		.map((literal) => `${file}:${literal.line} ${JSON.stringify(literal.text)}`);
}

it('reads the package’s source: the nodes, the credential and the sandbox, the contract among them', () => {
	expect(PACKAGE_SOURCE).toContain(CONTRACT);
	expect(CONTRACT_FILES.length).toBeGreaterThan(1);
	expect(CONTRACT_FILES.every((file) => PACKAGE_SOURCE.includes(file))).toBe(true);
	expect(PACKAGE_SOURCE).toContain('credentials/ContactDataApi.credentials.ts');
	expect(PACKAGE_SOURCE).toContain('nodes/ContactData/trigger/parameters.ts');
	expect(PACKAGE_SOURCE.some((file) => file.startsWith('sandbox/routes/'))).toBe(true);
});

it('finds the paths and id prefixes where they are written: in the contract', () => {
	expect(CONTRACT_FILES.flatMap((file) => copiesIn(file, API_PATH)).length).toBeGreaterThan(0);
	expect(CONTRACT_FILES.flatMap((file) => copiesIn(file, ID_PREFIX)).length).toBeGreaterThanOrEqual(
		Object.keys(ID_PREFIXES).length,
	);
});

it('no path of the API is written outside the contract', () => {
	const copies = OUTSIDE_CONTRACT.flatMap((file) => copiesIn(file, API_PATH));
	expect(copies).toEqual([]);
});

it('no id prefix or id pattern is written outside the contract', () => {
	const copies = OUTSIDE_CONTRACT.flatMap((file) => copiesIn(file, ID_PREFIX));
	expect(copies).toEqual([]);
});

it('no id pattern is built from an id prefix outside the contract (LIST_ID_PATTERN and its kin are the contract’s)', () => {
	expect(
		CONTRACT_FILES.flatMap((file) => prefixPatternsOf(file)).map((pattern) => pattern.text),
	).toContain('`^${ID_PREFIXES.list}[A-Za-z0-9_-]+$`');
	const own = OUTSIDE_CONTRACT.flatMap((file) =>
		prefixPatternsOf(file).map((pattern) => `${file}:${pattern.line} ${pattern.text}`),
	);
	expect(own).toEqual([]);
});

it('the contract’s index.ts names the document it is the code form of, and that document exists', () => {
	const header = /^\/\*\*[\s\S]*?\*\//.exec(readRepoFile(CONTRACT))?.[0] ?? '';
	const named = /`([\w./-]+\.md)`/.exec(header)?.[1];
	expect(named).toBe('docs/contract.md');
	expect(readRepoFile(String(named))).toMatch(/^# /m);
});
