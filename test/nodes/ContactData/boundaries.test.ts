/**
 * The nodes of nodes/ContactData keep to their own files, read from each file's import lines: the
 * action node (its .node.ts, resources/, router.ts, node.type.ts), the webhook trigger (trigger/)
 * and the poll trigger (pollTrigger/) each import only their own files, shared/ and listSearch/;
 * what two nodes need lives in shared/, with types that fit both, so neither casts through
 * `unknown`. The credential imports only the wire client.
 */
import { readRepoFile } from '../../support/files.cjs';
import { importedFile, importsOf, sourceFiles } from '../../support/sources.cjs';

const FOLDER = 'nodes/ContactData';

/** The files each node owns, by path prefix from the repository root. */
const OWNERS: Record<string, string[]> = {
	action: [
		`${FOLDER}/ContactData.node.ts`,
		`${FOLDER}/resources/`,
		`${FOLDER}/router.ts`,
		`${FOLDER}/node.type.ts`,
	],
	webhookTrigger: [`${FOLDER}/ContactDataTrigger.node.ts`, `${FOLDER}/trigger/`],
	pollTrigger: [`${FOLDER}/ContactDataPollTrigger.node.ts`, `${FOLDER}/pollTrigger/`],
};
/** What every node may use. */
const COMMON = [`${FOLDER}/shared/`, `${FOLDER}/listSearch/`];

/** The node owning a file, `common` for shared code, or undefined for a file no rule knows. */
function ownerOf(file: string): string | undefined {
	if (COMMON.some((prefix) => file.startsWith(prefix))) return 'common';
	return Object.keys(OWNERS).find((owner) =>
		OWNERS[owner].some((prefix) => file.startsWith(prefix)),
	);
}

/** `file imports target` for every relative import of the files that `allowed` refuses. */
function refusedImports(
	files: string[],
	allowed: (file: string, target: string) => boolean,
): string[] {
	return files.flatMap((file) =>
		importsOf(file)
			.filter((specifier) => specifier.startsWith('.'))
			.map((specifier) => importedFile(file, specifier))
			.filter((target) => !allowed(file, target))
			.map((target) => `${file} imports ${target}`),
	);
}

const nodeFiles = sourceFiles([FOLDER]).filter((file) => !file.endsWith('.json'));

it('knows the owner of every file of the nodes, each node owning files', () => {
	expect(nodeFiles.filter((file) => ownerOf(file) === undefined)).toEqual([]);
	for (const owner of Object.keys(OWNERS))
		expect(nodeFiles.some((file) => ownerOf(file) === owner)).toBe(true);
});

it("tells an import of another node's files from one of shared code", () => {
	expect(ownerOf(importedFile(`${FOLDER}/pollTrigger/poll.ts`, '../trigger/delivery'))).toBe(
		'webhookTrigger',
	);
	expect(ownerOf(importedFile(`${FOLDER}/pollTrigger/poll.ts`, '../shared/items/changes'))).toBe(
		'common',
	);
	expect(ownerOf(importedFile(`${FOLDER}/resources/contact/index.ts`, '../../node.type'))).toBe(
		'action',
	);
});

it('no node imports the files of another node, only its own, shared/ and listSearch/', () => {
	const reaching = refusedImports(nodeFiles, (file, target) => {
		const owner = ownerOf(target);
		return owner === 'common' || owner === ownerOf(file);
	});
	expect(reaching).toEqual([]);
});

it("shared code and the saved-list search import no node's own files", () => {
	const common = nodeFiles.filter((file) => ownerOf(file) === 'common');
	expect(refusedImports(common, (_file, target) => ownerOf(target) === 'common')).toEqual([]);
});

it('the credential imports only the wire client', () => {
	const credentials = sourceFiles(['credentials']);
	expect(credentials.length).toBeGreaterThan(0);
	const outside = refusedImports(credentials, (_file, target) =>
		target.startsWith(`${FOLDER}/shared/client/`),
	);
	expect(outside).toEqual([]);
});

it("the triggers' files cast nothing through unknown: what they share has types that fit both", () => {
	const triggerFiles = nodeFiles.filter((file) =>
		['webhookTrigger', 'pollTrigger'].includes(ownerOf(file) ?? ''),
	);
	expect(triggerFiles.length).toBeGreaterThan(5);
	expect(triggerFiles.filter((file) => readRepoFile(file).includes('as unknown as'))).toEqual([]);
});
