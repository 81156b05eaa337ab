/**
 * The documents: a README for users in the order of @n8n/node-cli's template, small, with the two
 * commands at the top; a CONTRIBUTING guide for the rest; and docs whose file paths exist.
 */
import { readRepoFile, repoFolderEntries } from './support/files.cjs';

const TEMPLATE_README =
	'node_modules/@n8n/node-cli/dist/template/templates/programmatic/example/template/README.md';
const DOCUMENTS = [
	'README.md',
	'CONTRIBUTING.md',
	...repoFolderEntries('docs')
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

const headings = (markdown: string) =>
	[...markdown.matchAll(/^## (.+)$/gm)].map((match) => match[1]);

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

describe('README', () => {
	const readme = readRepoFile('README.md');

	it('is at most 8 kB', () => {
		expect(new TextEncoder().encode(readme).length).toBeLessThanOrEqual(8_000);
	});

	it('starts with the two commands', () => {
		const [title, , fence, start, test] = readme.split('\n');
		expect(title).toBe('# n8n-nodes-contact-data');
		expect(fence).toBe('```bash');
		expect(start).toMatch(/^npm install && npm start\s/);
		expect(test).toMatch(/^npm install && npm test\s/);
	});

	it('has the template’s sections in the template’s order', () => {
		const template = headings(readRepoFile(TEMPLATE_README));
		expect(template.length).toBeGreaterThan(5);
		expect(headings(readme).filter((heading) => template.includes(heading))).toEqual(template);
	});

	it('leaves development to CONTRIBUTING.md, which starts with the fast loop', () => {
		expect(readme).toContain('(CONTRIBUTING.md)');
		expect(readme).not.toMatch(/^## Development/m);
		const contributing = readRepoFile('CONTRIBUTING.md');
		expect(contributing).toMatch(/^npm run test:fast\s/m);
		expect(contributing).toMatch(/^npm install && npm test\s/m);
	});
});

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

	it('show pictures that exist', () => {
		const missing: string[] = [];
		for (const document of DOCUMENTS) {
			const folder = document.startsWith('docs/') ? 'docs/' : '';
			for (const [, path] of readRepoFile(document).matchAll(/!\[[^\]]*\]\(([^)]+\.png)\)/g))
				if (!exists(folder + path)) missing.push(`${document}: ${path}`);
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
