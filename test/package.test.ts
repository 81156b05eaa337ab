/** The published package as n8n's gate and its users see it: package.json, the tarball, codex search terms, texts. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ContactDataApi } from '../credentials/ContactDataApi.credentials';
import { ContactData } from '../nodes/ContactData/ContactData.node';
import { ContactDataPollTrigger } from '../nodes/ContactData/ContactDataPollTrigger.node';
import { ContactDataTrigger } from '../nodes/ContactData/ContactDataTrigger.node';
import { packedFiles, readRepoFile, readRepoJson } from './support/files.cjs';

interface PackageJson {
	main?: string;
	dependencies?: Record<string, string>;
	devDependencies: Record<string, string>;
	scripts: Record<string, string>;
	files: string[];
	homepage: string;
	repository: { type: string; url: string; directory?: string };
	author: { email: string };
	n8n: { n8nNodesApiVersion: number; strict: boolean; nodes: string[]; credentials: string[] };
	workspaces?: unknown;
	private?: boolean;
}

const pkg = readRepoJson<PackageJson>('package.json');

describe('the repository root is the package, as @n8n/node-cli scaffolds it', () => {
	it('builds, lints and guards publishing with n8n-node, pinned', () => {
		expect(pkg.scripts).toMatchObject({
			build: 'n8n-node build',
			lint: 'n8n-node lint',
			release: 'n8n-node release',
			prepublishOnly: 'n8n-node prerelease',
		});
		expect(pkg.devDependencies['@n8n/node-cli']).toMatch(/^\d+\.\d+\.\d+$/);
		expect(pkg.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
		expect(readRepoFile('eslint.config.mjs').replace(/\s+/g, ' ').trim()).toBe(
			"import { config } from '@n8n/node-cli/eslint'; export default config;",
		);
	});

	it('is one package in a repository of its own: no workspace, no repository.directory', () => {
		expect(pkg.workspaces).toBeUndefined();
		expect(pkg.private).toBeUndefined();
		expect(pkg.repository).toEqual({
			type: 'git',
			url: 'git+https://github.com/contact-data/n8n-nodes-contact-data.git',
		});
		expect(pkg.homepage).toBe('https://github.com/contact-data/n8n-nodes-contact-data#readme');
	});

	it('names no missing entry point and no runtime dependency', () => {
		expect(pkg.main).toBeUndefined();
		expect(pkg.dependencies).toBeUndefined();
		expect(pkg.author.email).not.toMatch(/example/);
	});
});

describe('the tarball holds what n8n loads, README, CHANGELOG and LICENSE, nothing else', () => {
	const files = packedFiles();

	it('lists only dist/nodes, dist/credentials, dist/icons and the three documents', () => {
		expect(pkg.files).toEqual(['dist/nodes', 'dist/credentials', 'dist/icons', 'CHANGELOG.md']);
		const stray = files.filter(
			(file) =>
				!/^dist\/(nodes|credentials)\/.+\.(js|js\.map|d\.ts|json|svg|png)$/.test(file) &&
				!/^dist\/icons\/[^/]+\.svg$/.test(file) &&
				!['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(file),
		);
		expect(stray).toEqual([]);
	});

	it('ships every node and credential n8n is told to load, and nothing of the tools', () => {
		for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(files).toContain(entry);
		expect(files).toEqual(
			expect.arrayContaining(['dist/icons/contactData.svg', 'dist/icons/contactData.dark.svg']),
		);
		expect(
			files.filter((file) => /docs\/|images\/|sandbox|bench|test\/|\.png$|tsbuildinfo/.test(file)),
		).toEqual([]);
	});
});

describe('node search (n8n merges the trigger into the node’s entry)', () => {
	it.each(['job change', 'champion', 'role change', 'intent', 'enrichment', 'prospecting'])(
		'finds the node by "%s"',
		(term) => {
			const aliases = readRepoJson<{ alias: string[] }>(
				'nodes/ContactData/ContactData.node.json',
			).alias;
			expect(aliases.map((alias) => alias.toLowerCase())).toContain(term);
		},
	);
});

describe('codex files follow the rules of n8n’s next plugin (valid-node-categories, no-codex-subcategories)', () => {
	// valid-node-categories' list, verbatim from n8n's master plugin.
	const ALLOWED = [
		'Data & Storage',
		'Finance & Accounting',
		'Marketing & Content',
		'Productivity',
		'Miscellaneous',
		'Sales',
		'Development',
		'Analytics',
		'Communication',
		'Utility',
		'AI',
	];
	const codexFiles = [
		'nodes/ContactData/ContactData.node.json',
		'nodes/ContactData/ContactDataTrigger.node.json',
		'nodes/ContactData/ContactDataPollTrigger.node.json',
	];

	it.each(codexFiles)('%s: categories from the allowed list, no subcategories', (file) => {
		const codex = readRepoJson<{ categories: string[]; subcategories?: unknown }>(file);
		expect(codex.categories.length).toBeGreaterThan(0);
		expect(codex.categories.filter((category) => !ALLOWED.includes(category))).toEqual([]);
		expect(codex.subcategories).toBeUndefined();
	});

	it.each(
		['ContactDataTrigger', 'ContactDataPollTrigger'].flatMap((node) => [
			[node, 'job change'],
			[node, 'champion'],
		]),
	)('the %s codex is found by "%s"', (node, term) => {
		const { alias } = readRepoJson<{ alias: string[] }>(`nodes/ContactData/${node}.node.json`);
		expect(alias.map((entry) => entry.toLowerCase())).toContain(term);
	});
});

/** Every parameter of the three nodes and the credential, those inside collections included. */
function everyParameter(): INodeProperties[] {
	const within = (property: INodeProperties): INodeProperties[] => {
		const inner = (property.options ?? []).flatMap((option) =>
			'values' in option ? option.values : 'type' in option ? [option as INodeProperties] : [],
		);
		return [property, ...inner.flatMap(within)];
	};
	return [
		...new ContactDataApi().properties,
		...new ContactData().description.properties,
		...new ContactDataTrigger().description.properties,
		...new ContactDataPollTrigger().description.properties,
	].flatMap(within);
}

describe('texts stay short: details go to the docs', () => {
	it('no hint is over 120 characters (hint-max-length)', () => {
		const long = everyParameter().filter((property) => (property.hint ?? '').length > 120);
		expect(long.map((property) => property.name)).toEqual([]);
	});

	it('no parameter description is over 200 characters', () => {
		const long = everyParameter().filter((property) => (property.description ?? '').length > 200);
		expect(long.map((property) => `${property.name}: ${property.description?.length}`)).toEqual([]);
	});

	it('no notice is over 200 characters, the trigger panel’s included', () => {
		const { triggerPanel } = new ContactDataTrigger().description;
		const panel = typeof triggerPanel === 'object' ? triggerPanel : {};
		const texts = (value?: string | { active: string; inactive: string }) =>
			typeof value === 'string' ? [value] : Object.values(value ?? {});
		const notices = [
			...everyParameter()
				.filter((property) => property.type === 'notice')
				.map((property) => property.displayName),
			...texts(panel.executionsHelp),
			...texts(panel.activationHint),
			panel.header ?? '',
		];
		expect(notices.length).toBeGreaterThan(4);
		const long = notices.filter((notice) => notice.length > 200);
		expect(long.map((notice) => `${notice.length}: ${notice.slice(0, 40)}…`)).toEqual([]);
	});
});

describe('options lists are sorted by name, any case (options-sorted-alphabetically)', () => {
	it('every options list of the nodes and the credential', () => {
		const lists = everyParameter().filter(
			({ type }) => type === 'options' || type === 'multiOptions',
		);
		expect(lists.length).toBeGreaterThan(10);
		const unsorted = lists.filter(({ options }) => {
			const names = (options as INodePropertyOptions[]).map(({ name }) => name.toLowerCase());
			return names.some((name, index) => index > 0 && names[index - 1].localeCompare(name) > 0);
		});
		expect(
			unsorted.map(
				({ name, options }) => `${name}: ${options?.map((option) => option.name).join(', ')}`,
			),
		).toEqual([]);
	});
});
