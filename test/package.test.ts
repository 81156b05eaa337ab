/** The published package as n8n's gate and its users see it: package.json, codex search terms. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const PACKAGE_DIR = path.resolve(__dirname, '../n8n-nodes-contact-data');
const read = (file: string) => JSON.parse(readFileSync(path.join(PACKAGE_DIR, file), 'utf8'));

describe('the package folder, as @n8n/node-cli scaffolds it', () => {
	const pkg = read('package.json');

	it('builds, lints and guards publishing with n8n-node, pinned', () => {
		expect(pkg.scripts).toMatchObject({
			build: 'n8n-node build',
			lint: 'n8n-node lint',
			release: 'n8n-node release',
			prepublishOnly: 'n8n-node prerelease',
		});
		expect(pkg.devDependencies['@n8n/node-cli']).toMatch(/^\d+\.\d+\.\d+$/);
		expect(pkg.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
		expect(readFileSync(path.join(PACKAGE_DIR, 'eslint.config.mjs'), 'utf8').replace(/\s+/g, ' ').trim()).toBe(
			"import { config } from '@n8n/node-cli/eslint'; export default config;",
		);
	});

	it('names no missing entry point, no runtime dependency, and where its source lives', () => {
		expect(pkg.main).toBeUndefined();
		expect(pkg.dependencies).toBeUndefined();
		expect(pkg.repository.directory).toBe('n8n-nodes-contact-data');
		expect(pkg.author.email).not.toMatch(/example/);
	});
});

describe('node search (n8n merges the trigger into the node’s entry)', () => {
	it.each(['job change', 'champion', 'role change', 'intent', 'enrichment', 'prospecting'])(
		'finds the node by "%s"',
		(term) => {
			const aliases: string[] = read('nodes/ContactData/ContactData.node.json').alias;
			expect(aliases.map((alias) => alias.toLowerCase())).toContain(term);
		},
	);
});
