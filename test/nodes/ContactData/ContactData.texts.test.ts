/**
 * The face users see, measured on the built descriptions as n8n loads them (n8n's "UX guidelines for
 * community nodes"): canvas names from short actions, Title Case subtitles and labels, every
 * operation described, short notices (at most 2 at once), "e.g." examples, no jargon, messages
 * without the guideline's words; and the price of a paid operation where a model reads it.
 */
import {
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
	traverseNodeParameters,
	type FromAIArgument,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyCollection,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ContactDataApi } from '../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../nodes/ContactData/ContactData.node';
import { ContactDataPollTrigger } from '../../../nodes/ContactData/ContactDataPollTrigger.node';
import { ContactDataTrigger } from '../../../nodes/ContactData/ContactDataTrigger.node';
import { literalsOf, sourceFiles } from '../../support/sources.cjs';

const NODES: INodeType[] = [
	new ContactData(),
	new ContactDataTrigger(),
	new ContactDataPollTrigger(),
];
const actionNode = NODES[0].description;
const asTool: INodeTypeDescription = {
	...actionNode,
	name: `${actionNode.name}Tool`,
	outputs: [NodeConnectionTypes.AiTool],
};
const TOOL_SUFFIX = ' in Contact Data';

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every parameter, option and collection entry of a properties list, nested ones included. */
function entriesOf(properties: Entry[]): Entry[] {
	return properties.flatMap((entry) => {
		const nested = 'options' in entry && Array.isArray(entry.options) ? entry.options : [];
		const values = 'values' in entry && Array.isArray(entry.values) ? entry.values : [];
		return [entry, ...entriesOf([...nested, ...values] as Entry[])];
	});
}

/** The texts of an entry the editor shows, by their key. */
function shownTexts(entry: Entry): Array<[string, string]> {
	const keys = ['displayName', 'description', 'hint', 'placeholder', 'action'] as const;
	const texts = keys.map((key) => [key, (entry as unknown as Record<string, unknown>)[key]]);
	// An option's (and a collection entry's) `name` is its label; a parameter's is its internal name.
	if (!('type' in entry)) texts.push(['name', entry.name]);
	return texts.filter((text): text is [string, string] => typeof text[1] === 'string');
}

const credential = new ContactDataApi();
const ALL_ENTRIES = [
	...NODES.flatMap(({ description }) => description.properties),
	...credential.properties,
];
const ALL_TEXTS: string[] = [
	...entriesOf(ALL_ENTRIES).flatMap((entry) => shownTexts(entry).map(([, text]) => text)),
	...NODES.flatMap(({ description }) => [
		description.description,
		description.subtitle ?? '',
		...Object.values(description.triggerPanel ?? {}).flatMap((value) =>
			typeof value === 'string' ? [value] : Object.values(value ?? {}),
		),
	]),
].filter((text): text is string => typeof text === 'string');

/** Each operation of the action node: its resource option and its operation option. */
const OPERATIONS = actionNode.properties
	.filter(({ name, options }) => name === 'operation' && options)
	.flatMap((property) => {
		const resourceValue = property.displayOptions!.show!.resource![0];
		const resource = actionNode.properties
			.find(({ name }) => name === 'resource')!
			.options!.find((option) => (option as INodePropertyOptions).value === resourceValue);
		return (property.options as INodePropertyOptions[]).map((operation) => ({
			resource: resource as INodePropertyOptions,
			operation,
			parameters: { resource: resourceValue, operation: operation.value } as INodeParameters,
		}));
	});

const MINOR_WORDS = new Set(
	'a an and as at but by for from in into of on or per the to via with'.split(' '),
);
/** Title Case: each word capitalised, but for short words (articles, conjunctions, prepositions) inside. */
function isTitleCase(text: string): boolean {
	const words = text.split(/[\s/]+/).filter((word) => /^[A-Za-z]/.test(word));
	return words.every((word, index) =>
		MINOR_WORDS.has(word.toLowerCase()) && index > 0 && index < words.length - 1
			? word === word.toLowerCase()
			: /^[A-Z0-9]/.test(word),
	);
}

/** What the editor shows as an entry's label: an option's `name`, a parameter's or a collection's `displayName`. */
const labelOf = (entry: Entry) => ('displayName' in entry ? entry.displayName : entry.name);

describe('operations', () => {
	it('finds the 12 operations of the Contact Data node', () => {
		expect(OPERATIONS).toHaveLength(12);
	});

	it.each(OPERATIONS.map((each) => [`${each.resource.name} → ${each.operation.name}`, each]))(
		'%s: a canvas name of at most 40 characters, without : ; ( ) or commas, nor articles',
		(_, { resource, operation, parameters }) => {
			const name = NodeHelpers.makeNodeName(parameters, actionNode);
			expect(name).toBe(operation.action);
			expect(name.length).toBeLessThanOrEqual(40);
			expect(name).not.toMatch(/[:;(),]/);
			expect(name).not.toMatch(/\b(a|an|the)\b/i);
			// It names its resource ("Get credit balance", "Delete saved list").
			expect(name.toLowerCase()).toContain(resource.name.toLowerCase().replace(/s$/, ''));
			expect(NodeHelpers.makeNodeName(parameters, asTool)).toBe(`${name}${TOOL_SUFFIX}`);
		},
	);

	it.each(OPERATIONS.map((each) => [each.operation.name, each]))(
		'%s is described',
		(_, { operation }) => {
			expect(operation.description).toMatch(/^[A-Z].{15,}/);
		},
	);

	it.each(OPERATIONS.map((each) => [`${each.resource.name} → ${each.operation.name}`, each]))(
		'%s shows its operation and resource in Title Case under the node',
		(_, { resource, operation, parameters }) => {
			expect(subtitleOf(actionNode, parameters)).toBe(`${operation.name}: ${resource.name}`);
		},
	);
});

/** The subtitle n8n shows under a node saved with `parameters`, worked out by n8n's expressions. */
function subtitleOf(description: INodeTypeDescription, parameters: INodeParameters): unknown {
	const node: INode = {
		id: '1',
		name: 'node',
		type: description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const nodeType = NODES.find((each) => each.description === description)!;
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
}

it('the triggers’ subtitles are in Title Case', () => {
	const [, trigger, poll] = NODES.map(({ description }) => description);
	const triggerSubtitle = subtitleOf(trigger, { events: ['job_change', 'role_change', 'intent'] });
	expect(triggerSubtitle).toMatch(/Job Change/);
	expect(isTitleCase(String(triggerSubtitle))).toBe(true);
	expect(isTitleCase(String(subtitleOf(poll, {})))).toBe(true);
});

it('labels (parameters, options, collections) are in Title Case', () => {
	const labels = entriesOf(ALL_ENTRIES)
		.filter((entry) => !('type' in entry && entry.type === 'notice'))
		.map(labelOf)
		.filter((label) => !isTitleCase(label));
	expect(labels).toEqual([]);
	expect(isTitleCase('Food and Beverage')).toBe(true);
	expect(isTitleCase('Food And Beverage')).toBe(false);
});

it('labels written from API values read as people write them', () => {
	const names = new Map(
		entriesOf(ALL_ENTRIES)
			.filter((entry): entry is INodePropertyOptions => !('type' in entry) && 'value' in entry)
			.map(({ value, name }) => [value, name]),
	);
	expect(names.get('pre_seed')).toBe('Pre-Seed');
	expect(names.get('ruby on rails')).toBe('Ruby on Rails');
	expect(names.get('food_and_beverage')).toBe('Food and Beverage');
	expect(names.get('marketing_and_advertising')).toBe('Marketing and Advertising');
});

describe('notices', () => {
	const notices = NODES.flatMap(({ description }) =>
		description.properties.filter(({ type }) => type === 'notice'),
	);

	it.each(notices.map(({ name, displayName }) => [name, displayName]))(
		'%s is at most 150 characters',
		(_, text) => {
			expect(text.length).toBeLessThanOrEqual(150);
		},
	);

	it('at most 2 show at once, for any operation, version, use and choice', () => {
		const most = Math.max(...panelStates().map(({ shown }) => shown.length));
		expect(most).toBeGreaterThanOrEqual(1);
		expect(most).toBeLessThanOrEqual(2);
	});

	it('no notice repeats a hint of the same panel', () => {
		const hints = entriesOf(ALL_ENTRIES).flatMap((entry) =>
			'hint' in entry && entry.hint ? [wordsOf(entry.hint)] : [],
		);
		const repeating = notices.filter(({ displayName }) =>
			hints.some((hint) => overlap(hint, wordsOf(displayName)) >= 0.5),
		);
		expect(repeating.map(({ name }) => name)).toEqual([]);
	});
});

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? []);
/** The share of the shorter text's words that the other text has too. */
function overlap(a: Set<string>, b: Set<string>): number {
	const [short, long] = a.size <= b.size ? [a, b] : [b, a];
	return [...short].filter((word) => long.has(word)).length / Math.max(short.size, 1);
}

/**
 * The notices shown for every node, version and use (canvas, tool), for every operation, with
 * every value of each choice the panel shows (a parameter with options, or a boolean) in turn.
 */
function panelStates(): Array<{ shown: string[] }> {
	const states: Array<{ shown: string[] }> = [];
	for (const { description } of NODES) {
		const versions = [description.version].flat();
		const types = description === actionNode ? [description, asTool] : [description];
		const bases = description === actionNode ? OPERATIONS.map((each) => each.parameters) : [{}];
		for (const typeVersion of versions)
			for (const type of types)
				for (const base of bases)
					for (const saved of withEachChoice(description, base, typeVersion, type))
						states.push({ shown: shownNotices(description, saved, typeVersion, type) });
	}
	return states;
}

function withEachChoice(
	description: INodeTypeDescription,
	base: INodeParameters,
	typeVersion: number,
	type: INodeTypeDescription,
): INodeParameters[] {
	const node = { typeVersion, parameters: base } as unknown as INode;
	const values = NodeHelpers.getNodeParameters(
		description.properties,
		base,
		true,
		false,
		node,
		type,
	);
	const choices = description.properties
		.filter((property) => NodeHelpers.displayParameter(values ?? {}, property, node, type))
		.filter(({ type: kind, name }) => ['options', 'boolean'].includes(kind) && !(name in base))
		.flatMap(({ name, type: kind, options }) =>
			(kind === 'boolean'
				? [true, false]
				: (options as INodePropertyOptions[]).map((option) => option.value)
			).map((value) => ({ ...base, [name]: value }) as INodeParameters),
		);
	return [base, ...choices];
}

function shownNotices(
	description: INodeTypeDescription,
	saved: INodeParameters,
	typeVersion: number,
	type: INodeTypeDescription,
): string[] {
	const node = { typeVersion, parameters: saved } as unknown as INode;
	const values = NodeHelpers.getNodeParameters(
		description.properties,
		saved,
		true,
		false,
		node,
		type,
	);
	return description.properties
		.filter(({ type: kind }) => kind === 'notice')
		.filter((property) => NodeHelpers.displayParameter(values ?? {}, property, node, type))
		.map(({ name }) => name);
}

describe('examples and words', () => {
	it('every example placeholder starts with "e.g."', () => {
		const examples = entriesOf(ALL_ENTRIES).flatMap((entry) => {
			const { placeholder, type } = entry as INodeProperties;
			// A collection's placeholder is its button ("Add Option"), not an example.
			if (!placeholder || ['collection', 'fixedCollection'].includes(type)) return [];
			return [placeholder];
		});
		const locatorIds = ALL_ENTRIES.flatMap((entry) =>
			entriesOf([entry]).flatMap((each) =>
				((each as INodeProperties).modes ?? [])
					// A list mode's placeholder is its prompt ("Select a saved list…").
					.filter(({ type }) => type !== 'list')
					.map(({ placeholder }) => placeholder ?? ''),
			),
		);
		expect(examples.length + locatorIds.length).toBeGreaterThan(5);
		expect([...examples, ...locatorIds].filter((text) => !text.startsWith('e.g. '))).toEqual([]);
	});

	const JARGON = [
		/snake_case/i,
		/dotted path/i,
		/expression per item/i,
		/queue-mode/i,
		/n8n process/i,
		/streamable http/i,
		/\bSSE\b/,
		/mcp-session-id/i,
		// Issue 38's finding 7: how the node sends, not what the user gets.
		/deduplicated/i,
		/\d per call/i,
		/binary field/i,
		/read once, from the first item/i,
	];
	it('no text the editor shows uses jargon', () => {
		expect(ALL_TEXTS.length).toBeGreaterThan(100);
		expect(ALL_TEXTS.filter((text) => JARGON.some((word) => word.test(text)))).toEqual([]);
	});

	/** The guideline's words for what went wrong, which messages avoid. */
	const BLAMING = /\b(errors?|problems?|failures?|mistakes?|failed|fails)\b/i;
	it('no text the editor shows uses the guideline’s words for what went wrong', () => {
		expect(ALL_TEXTS.filter((text) => BLAMING.test(text))).toEqual([]);
	});

	/**
	 * The lead rewrites these (the charging path, the client's failures), with their messages; the
	 * execute code of Unlock and Enrich is theirs too: their descriptions are checked above.
	 */
	it('no message in the code uses those words', () => {
		const files = sourceFiles(['nodes', 'credentials']);
		expect(files.length).toBeGreaterThan(50);
		const found = files.flatMap((file) =>
			literalsOf(file)
				// A message is prose: words with spaces between them.
				.filter(({ text }) => /\w\s+\w/.test(text) && BLAMING.test(text))
				.map(({ line, text }) => `${file}:${line}: ${text}`),
		);
		expect(found).toEqual([]);
	});
});

describe('the price where the model reads it', () => {
	/**
	 * The argument descriptions a model reads for an operation's tool: its saved values with their
	 * defaults (as n8n fills them in), read by n8n's own $fromAI parser.
	 */
	function modelReads(operation: string): string[] {
		const saved = { resource: 'contact', operation };
		const node = { typeVersion: 2, parameters: saved } as unknown as INode;
		const values =
			NodeHelpers.getNodeParameters(actionNode.properties, saved, true, false, node, asTool) ?? {};
		const found: FromAIArgument[] = [];
		traverseNodeParameters(values, found);
		return found.map(({ description }) => description ?? '');
	}

	it.each([['unlock'], ['enrich']])('%s: in the description of an argument', (operation) => {
		const read = modelReads(operation).join(' ');
		expect(read).toMatch(/1 credit/);
		expect(read).toMatch(/2 at premium/);
		expect(read).toMatch(/free if already unlocked/);
		expect(read).toMatch(/Max Credits/);
	});

	it('a free operation names no price', () => {
		expect(modelReads('search').length).toBeGreaterThan(0);
		expect(modelReads('search').join(' ')).not.toMatch(/credit/);
	});
});
