/**
 * The example workflows: each Contact Data node is of the version a new node gets, with only parameters
 * that version shows (so the pictures of them show today's parameters); an AI agent's Contact Data tools
 * are described by what they expose, and outside services ship disabled with a note (the end-to-end
 * check runs the examples in n8n).
 */
import { NodeHelpers, type INode, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { ContactData } from '../nodes/ContactData/ContactData.node';
import { ContactDataPollTrigger } from '../nodes/ContactData/ContactDataPollTrigger.node';
import { ContactDataTrigger } from '../nodes/ContactData/ContactDataTrigger.node';
import { asToolType } from './harness/agent';
import { readRepoJson, repoFolderEntries } from './support/files.cjs';
import { newNodeVersion } from './support/nodeVersions.cjs';

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	disabled?: boolean;
	parameters: Record<string, unknown> & {
		toolDescription?: string;
		filters?: Record<string, unknown>;
	};
}

const examples = repoFolderEntries('examples')
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({
		file,
		workflow: readRepoJson<{ nodes: ExampleNode[] }>(`examples/${file}`),
	}));

const PACKAGE = 'n8n-nodes-contact-data';
/** The package's node types as n8n lists them, the AI tool copy of the action node included. */
const NODE_TYPES = new Map<string, INodeTypeDescription>(
	[new ContactData(), new ContactDataTrigger(), new ContactDataPollTrigger()]
		.flatMap((type: INodeType) =>
			type.description.usableAsTool ? [type, asToolType(type)] : [type],
		)
		.map(({ description }) => [`${PACKAGE}.${description.name}`, description]),
);
/** n8n adds these two to every tool copy (its convertNodeToAiTool). */
const TOOL_PARAMETERS = ['descriptionType', 'toolDescription'];

const packageNodes = examples.flatMap(({ file, workflow }) =>
	workflow.nodes
		.filter((node) => node.type.startsWith(`${PACKAGE}.`))
		.map((node) => [file, node.name, node] as const),
);

it('the examples hold nodes of each of the package’s node types', () => {
	const types = new Set(packageNodes.map(([, , node]) => node.type));
	expect([...NODE_TYPES.keys()].filter((type) => !types.has(type))).toEqual([
		`${PACKAGE}.contactDataPollTrigger`,
	]);
});

/**
 * The AI agent and MCP examples keep their tools at version 2: the end-to-end agents checks
 * (scripts/e2e/agents.sh) read version 2's tool answers, and 2.1's Output gives another shape.
 */
const TOOL_VERSION = 2;
const isTool = (type: string) => type.endsWith('Tool');

it.each(packageNodes)('%s, %s: the version a new node gets', (_file, _name, node) => {
	const expected = isTool(node.type) ? TOOL_VERSION : newNodeVersion(NODE_TYPES.get(node.type)!);
	expect(node.typeVersion).toBe(expected);
});

it.each(packageNodes)('%s, %s: sets only parameters its version shows', (_file, _name, node) => {
	const type = NODE_TYPES.get(node.type)!;
	const shown = NodeHelpers.getNodeParameters(
		type.properties,
		node.parameters as INode['parameters'],
		true,
		false,
		node as unknown as INode,
		type,
	)!;
	const set = Object.keys(node.parameters).filter((name) => !TOOL_PARAMETERS.includes(name));
	expect(set.filter((name) => !(name in shown))).toEqual([]);
});

/** How a tool description names each Search filter. */
const FILTER_WORDS: Record<string, RegExp> = {
	title: /\btitles?\b/i,
	seniority: /\bseniorit/i,
	country: /\bcountr/i,
	department: /\bdepartment/i,
	industry: /\bindustr/i,
	techStack: /\btech/i,
	companySizeMin: /\bcompany size|\bemployees/i,
	companySizeMax: /\bcompany size|\bemployees/i,
	fundingStage: /\bfunding/i,
	keywords: /\bkeyword/i,
};

const tools = examples.flatMap(({ file, workflow }) =>
	workflow.nodes
		.filter((node) => node.type === 'n8n-nodes-contact-data.contactDataTool')
		.map((node) => ({ file, node })),
);

it('the examples include Contact Data tools', () => {
	expect(tools.length).toBeGreaterThan(0);
});

it.each(
	tools
		.filter(({ node }) => node.parameters.operation === 'search')
		.map(({ file, node }) => [file, node.name, node]),
)('%s, %s: the description names exactly the filters the agent can set', (_file, _name, node) => {
	const { toolDescription = '', filters = {} } = (node as ExampleNode).parameters;
	const exposed = Object.keys(filters).filter((name) => String(filters[name]).includes('$fromAI('));
	const named = Object.keys(FILTER_WORDS).filter((name) =>
		FILTER_WORDS[name].test(toolDescription),
	);
	expect(named.sort()).toEqual(exposed.sort());
});

it('HubSpot and Slack ship disabled, each with a sticky note that says how to connect it', () => {
	const outside = examples.flatMap(({ workflow }) =>
		workflow.nodes
			.filter((node) => ['n8n-nodes-base.hubspot', 'n8n-nodes-base.slack'].includes(node.type))
			.map((node) => ({ workflow, node })),
	);
	expect(outside).toHaveLength(2);
	for (const { workflow, node } of outside) {
		expect(node.disabled).toBe(true);
		const notes = workflow.nodes.filter((other) => other.type === 'n8n-nodes-base.stickyNote');
		expect(
			notes.some(
				(note) =>
					String(note.parameters.content).includes(node.name) &&
					/credential/i.test(String(note.parameters.content)),
			),
		).toBe(true);
	}
});
