/**
 * Prettier with the configuration of @n8n/node-cli's template, checked by `npm test`. The code tree is
 * formatted in one commit of its own (`npm run format`), apart from changes of behaviour.
 */
import { readRepoFile, readRepoJson } from './support/files.cjs';

const TEMPLATE = 'node_modules/@n8n/node-cli/dist/template/templates/shared/default';

interface PackageJson {
	scripts: Record<string, string>;
	devDependencies: Record<string, string>;
	dependencies?: Record<string, string>;
}

it('uses the template’s .prettierrc.js unchanged, and the Prettier version the template pins', () => {
	expect(readRepoFile('.prettierrc.js')).toBe(readRepoFile(`${TEMPLATE}/.prettierrc.js`));
	const cli = readRepoJson<PackageJson>('node_modules/@n8n/node-cli/package.json');
	const pinned = cli.dependencies?.prettier ?? cli.devDependencies.prettier;
	expect(readRepoJson<PackageJson>('package.json').devDependencies.prettier).toBe(pinned);
});

it('has format and format:check, and npm test runs the check as a stage', () => {
	const { scripts } = readRepoJson<PackageJson>('package.json');
	expect(scripts.format).toBe('prettier --write .');
	expect(scripts['format:check']).toBe('prettier --check .');
	expect(readRepoFile('scripts/test.sh')).toMatch(/^stage format npm run --silent format:check$/m);
});

it('leaves built, generated and vendored files to their tools', () => {
	const ignored = readRepoFile('.prettierignore').split('\n');
	expect(ignored).toEqual(
		expect.arrayContaining(['build/', 'dist/', 'package-lock.json', 'docs/images/']),
	);
});
