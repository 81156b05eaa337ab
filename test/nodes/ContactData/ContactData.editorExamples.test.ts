/**
 * Every example the editor shows runs (issue 44, finding 2): each placeholder and each "e.g." of a
 * hint or description of the three nodes and the credential, in every version and use (canvas,
 * tool) that shows it, run in n8n's engine against the sandbox as the user would type it. The few
 * that name what only the user has (their saved list, a person, their API's address) are listed by
 * name; those that can be sent must still reach the API and get its answer, not a refusal.
 */
import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyCollection,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ContactDataApi } from '../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../nodes/ContactData/ContactData.node';
import { ContactDataPollTrigger } from '../../../nodes/ContactData/ContactDataPollTrigger.node';
import { ContactDataTrigger } from '../../../nodes/ContactData/ContactDataTrigger.node';
import {
	PATHS,
	type SavedList,
	type UnlockAnswer,
} from '../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../harness/sandbox';
import { api, contacts, run, toolContacts, type TestSandbox } from './setup';

/** One example as the editor shows it: where (node, version, use, parameter path) and what. */
interface Example {
	node: string;
	version: number;
	tool: boolean;
	/** Parameter names from the top-level parameter down ("filters.otherFilters.filter.name"). */
	path: string[];
	/** The field's label, as the editor shows it. */
	label: string;
	/** The example's value, without "e.g. ". */
	value: string;
	/** The multiple-value group it is one field of (Other Filters' Name and Value run together). */
	group?: string;
	/** A resource locator's mode the example is of. */
	mode?: string;
}

const EXAMPLE = /\be\.g\. (.+?)\.?$/;

/** The example a text gives: a placeholder is one whole, a hint or description after its "e.g.". */
function examplesIn(property: INodeProperties): Array<{ value: string; mode?: string }> {
	const found: Array<{ value: string; mode?: string }> = [];
	// A collection's placeholder is its button ("Add Filter"), not an example.
	const isButton = ['collection', 'fixedCollection'].includes(property.type);
	if (property.placeholder && !isButton) found.push({ value: property.placeholder });
	for (const text of [property.hint, property.description])
		if (text && EXAMPLE.test(text)) found.push({ value: text });
	for (const mode of property.modes ?? [])
		if (mode.type !== 'list' && mode.placeholder)
			found.push({ value: mode.placeholder, mode: mode.name });
	return found.map(({ value, mode }) => ({
		value: EXAMPLE.exec(value)?.[1] ?? value,
		...(mode ? { mode } : {}),
	}));
}

/** Whether a top-level parameter shows in this version and use, whatever else it waits for. */
function shows(
	property: INodeProperties,
	type: INodeTypeDescription,
	version: number,
	parameters: INodeParameters,
): boolean {
	const node = { typeVersion: version, parameters } as unknown as INode;
	return NodeHelpers.displayParameter(parameters, property, node, type);
}

/** The values a parameter's own `show` names first: the panel where it appears. */
function panelOf(property: INodeProperties): INodeParameters {
	const show = property.displayOptions?.show ?? {};
	return Object.fromEntries(
		Object.entries(show)
			.filter(([name]) => !name.startsWith('@'))
			.map(([name, values]) => [name, (values as unknown[])[0] as string]),
	);
}

function walk(
	entries: Array<INodeProperties | INodePropertyCollection>,
	at: Omit<Example, 'path' | 'label' | 'value'> & { path: string[] },
): Example[] {
	return entries.flatMap((entry) => {
		if (!('type' in entry)) {
			// A fixedCollection's option: its fields are one entry of the group.
			const group = [...at.path, entry.name].join('.');
			return walk(entry.values, { ...at, path: [...at.path, entry.name], group });
		}
		const path = [...at.path, entry.name];
		const own = examplesIn(entry).map((example) => ({
			...at,
			path,
			label: entry.displayName,
			...example,
		}));
		const nested = (entry.options ?? []).filter(
			(option): option is INodeProperties | INodePropertyCollection =>
				typeof option === 'object' && ('type' in option || 'values' in option),
		);
		return [...own, ...walk(nested, { ...at, path })];
	});
}

const NODES: INodeType[] = [
	new ContactData(),
	new ContactDataTrigger(),
	new ContactDataPollTrigger(),
];

function nodeExamples({ description }: INodeType): Example[] {
	const versions = [description.version].flat();
	const asTool = { ...description, name: `${description.name}Tool` };
	const uses = description.usableAsTool ? [false, true] : [false];
	return versions.flatMap((version) =>
		uses.flatMap((tool) =>
			description.properties
				.filter((property) =>
					shows(property, tool ? asTool : description, version, panelOf(property)),
				)
				.flatMap((property) =>
					walk([property], { node: description.name, version, tool, path: [] }),
				),
		),
	);
}

const EXAMPLES: Example[] = [
	...NODES.flatMap(nodeExamples),
	...walk(new ContactDataApi().properties, {
		node: 'contactDataApi',
		version: 1,
		tool: false,
		path: [],
	}),
];

/**
 * Not meant to run as they stand, by the editor's label: each names what only the user has. Those
 * the node can send must reach the API and get its answer (not a refusal before sending).
 */
const NOT_RUN: Record<string, string> = {
	'Base URL': 'the address of the user’s Contact Data API; the sandbox has its own',
	'Saved List': 'the id of one of the user’s saved lists; the sandbox makes its own ids',
	Email: 'a person’s work email; example.com is a reserved domain, no one the sandbox holds',
	'LinkedIn URL': 'a person’s LinkedIn profile; no one the sandbox holds',
};

const describeExample = (example: Example) =>
	`${example.node} ${example.version}${example.tool ? ' (tool)' : ''} ${example.path.join('.')}${example.mode ? ` (${example.mode})` : ''}: ${example.value}`;

it('finds every example the editor shows, and runs all but the few that name the user’s own', () => {
	expect(EXAMPLES.map(describeExample)).toHaveLength(73);
	expect(new Set(EXAMPLES.map(({ value }) => value)).size).toBe(13);
	expect(EXAMPLES.filter(({ label }) => !(label in NOT_RUN))).toHaveLength(50);
	// The triggers' and the credential's examples are all of the user's own: none is left unrun.
	expect(
		EXAMPLES.filter(({ node, label }) => node !== 'contactData' && !(label in NOT_RUN)),
	).toEqual([]);
	// Each listed label is one the editor shows with an example.
	for (const label of Object.keys(NOT_RUN))
		expect(EXAMPLES.some((example) => example.label === label)).toBe(true);
});

let sandbox: TestSandbox;
/** A contact of the sandbox with an email and a LinkedIn URL, unlocked. */
let person: IDataObject;
let list: SavedList;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 1_000 });
	const ids = (await contacts(sandbox, 20)).map(({ id }) => id);
	const unlocked = await api<UnlockAnswer>(sandbox, 'POST', PATHS.unlock, { ids });
	person = unlocked.body.contacts.find(
		(contact) => (contact as IDataObject).email && (contact as IDataObject).linkedin_url,
	) as IDataObject;
	list = (
		await api<SavedList>(sandbox, 'POST', PATHS.lists, { name: 'Examples', contact_ids: ids })
	).body;
});
afterAll(async () => sandbox?.close());

/** The examples of one group (Other Filters' Name and Value), or the example alone. */
function runsOf(examples: Example[]): Example[][] {
	const groups = new Map<string, Example[]>();
	for (const example of examples) {
		const key = `${example.node} ${example.version} ${example.tool} ${example.group ?? example.path.join('.')} ${example.mode ?? ''}`;
		groups.set(key, [...(groups.get(key) ?? []), example]);
	}
	return [...groups.values()];
}

/** The parameters that hold the examples of one run, as the editor saves them. */
function parametersOf(run: Example[]): INodeParameters {
	const [first] = run;
	if (first.group) {
		// A multiple-value group: one entry of its fields, under the collection's option name.
		const entry = Object.fromEntries(run.map(({ path, value }) => [path.at(-1)!, value]));
		const [top, ...inner] = first.group.split('.');
		const option = inner.pop()!;
		let value: IDataObject = { [option]: [entry] };
		for (const name of inner.reverse()) value = { [name]: value };
		return { [top]: value } as INodeParameters;
	}
	let value: unknown = first.value;
	for (const name of [...first.path].reverse().slice(0, -1)) value = { [name]: value };
	return { [first.path[0]]: value } as INodeParameters;
}

const property = (example: Example) =>
	NODES.map(({ description }) => description)
		.find(({ name }) => name === example.node)!
		.properties.find(
			(each) =>
				each.name === example.path[0] &&
				shows(
					each,
					example.tool
						? { ...NODES[0].description, name: 'contactDataTool' }
						: NODES[0].description,
					example.version,
					panelOf(each),
				),
		)!;

const RUNS = runsOf(
	EXAMPLES.filter(({ node, label }) => node === 'contactData' && !(label in NOT_RUN)),
);

it.each(RUNS.map((each) => [each.map(describeExample).join(' + '), each]))(
	'%s runs',
	async (_, examples) => {
		const [first] = examples;
		const panel = panelOf(property(first));
		const saved = { ...panel, ...besides(first), ...parametersOf(examples) };
		const result = await run(sandbox, {
			parameters: saved,
			typeVersion: first.version,
			asTool: first.tool,
			inputItems: [{ json: { email: person.email, linkedin_url: person.linkedin_url } }],
		});
		expect(result.error).toBeUndefined();
		// It finds something: contacts on the canvas, or in a tool's one answer.
		expect(toolContacts(result.items).length).toBeGreaterThan(0);
		expect(result.items.filter(({ json }) => json.error !== undefined)).toEqual([]);
		expect(result.items.flatMap(({ json }) => (json.not_done as IDataObject[]) ?? [])).toEqual([]);
	},
);

/** What an example needs besides itself: the list to export (the input item holds a person). */
const besides = (example: Example): INodeParameters =>
	example.path[0] === 'fields' ? { listId: { __rl: true, mode: 'id', value: list.id } } : {};

/** The listed examples the node can send: the API answers that it has no such list or person. */
const SENT_UNRUN = runsOf(
	EXAMPLES.filter(({ node, label }) => node === 'contactData' && label in NOT_RUN),
);

it.each(SENT_UNRUN.map((each) => [each.map(describeExample).join(' + '), each]))(
	'%s reaches the API, which knows no such thing',
	async (_, examples) => {
		const [first] = examples;
		const saved = { ...panelOf(property(first)), ...parametersOf(examples) };
		if (first.mode) saved[first.path[0]] = { __rl: true, mode: first.mode, value: first.value };
		const before = (await sandbox.admin.stats()).requests_total;
		const result = await run(sandbox, {
			parameters: saved,
			typeVersion: first.version,
			asTool: first.tool,
			inputItems: [{ json: {} }],
		});
		const answer = result.error ?? result.items[0]?.json;
		expect(String(answer?.httpCode)).toBe('404');
		expect((await sandbox.admin.stats()).requests_total).toBeGreaterThan(before);
	},
);
