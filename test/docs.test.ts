/** The documents: file paths that exist, and claims that hold for all three nodes. */
import { readRepoFile, repoFolderEntries } from './support/files.cjs';

const DOCUMENTS = [
	'README.md',
	...repoFolderEntries('docs')
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

function exists(path: string): boolean {
	try {
		readRepoFile(path);
		return true;
	} catch {
		try {
			return repoFolderEntries(path).length >= 0;
		} catch {
			return false;
		}
	}
}

describe('docs', () => {
	it('name only paths of the repository that exist', () => {
		const missing: string[] = [];
		for (const document of DOCUMENTS) {
			const text = readRepoFile(document);
			for (const [, path] of text.matchAll(
				/`((?:nodes|credentials|test|sandbox|bench|scripts|examples|icons|docs)\/[^`\s]*)`/g,
			)) {
				// Placeholders and globs stand for many paths; docs/rules/ is n8n's lint plugin's, not ours.
				if (/[<{*…]/.test(path) || path.startsWith('docs/rules/')) continue;
				if (!exists(path.replace(/[#:].*$/, ''))) missing.push(`${document}: ${path}`);
			}
		}
		expect(missing).toEqual([]);
	});

	it('give the credential’s Base URL no default', () => {
		const claiming = DOCUMENTS.filter((document) =>
			/default is the\s+local sandbox/i.test(readRepoFile(document)),
		);
		expect(claiming).toEqual([]);
	});

	it('check the rules for all three nodes on the verification page', () => {
		const verification = readRepoFile('docs/verification.md');
		expect(verification.split('\n').filter((line) => /\bboth nodes\b/i.test(line))).toEqual([]);
		expect(verification).toContain('ContactDataPollTrigger');
	});
});
