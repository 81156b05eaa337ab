/**
 * The example workflows: an AI agent's Contact Data tools are described by what they expose, and
 * outside services ship disabled with a note (the end-to-end check runs the examples in n8n).
 */
import { readRepoJson, repoFolderEntries } from './support/files.cjs';

interface ExampleNode {
	name: string;
	type: string;
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
