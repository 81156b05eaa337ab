/**
 * The workflows behind the committed pictures of an open Contact Data node (docs/images/n8n-<line>/, taken by
 * the browser journey, scripts/n8n/journey.mjs) show what a new user would have (issue 44, finding 6): each
 * Contact Data node at the version a new node gets, every parameter at its default but those its picture's
 * caption names. editor-drag-field.png once showed version 2's "Contact IDs From", its old hint and Simplify
 * off.
 */
import { NodeHelpers, type INode, type INodeParameters } from 'n8n-workflow';

import { ContactData } from '../nodes/ContactData/ContactData.node';
import { readRepoFile, readRepoJson } from './support/files.cjs';
import { newNodeVersion } from './support/nodeVersions.cjs';

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}

const CONTACT_DATA = new ContactData().description;
/** What each picture's caption names: the only parameters its nodes set away from their defaults. */
const PICTURED = [
	{
		// editor-search-unlock-crm.png, editor-unlock-node.png, editor-search-filters.png, editor-unlock-error.png
		// (the journey's over-budget variant of it sets Max Credits and the country)
		workflow: 'examples/search-unlock-upsert-crm.json',
		named: {
			'Search VPs of Engineering': ['filters', 'limit'],
			'Unlock within 25 credits': ['maxCredits'],
		},
	},
	{
		// editor-drag-field.png: the field is dropped on Contact ID Field, which the picture shows
		workflow: 'test/e2e/workflows/drag-field.json',
		named: { 'Search two managers': ['filters', 'limit'], 'Unlock the prospects': ['maxCredits'] },
	},
];

/** The parameters a node of the type shows with only its resource and operation set, at their defaults. */
function defaultsOf(node: WorkflowNode): INodeParameters {
	const { resource, operation } = node.parameters;
	return NodeHelpers.getNodeParameters(
		CONTACT_DATA.properties,
		{ resource, operation },
		true,
		false,
		node as unknown as INode,
		CONTACT_DATA,
	)!;
}

const nodes = PICTURED.flatMap(({ workflow, named }) =>
	readRepoJson<{ nodes: WorkflowNode[] }>(workflow)
		.nodes.filter((node) => node.type === 'n8n-nodes-contact-data.contactData')
		.map(
			(node) => [workflow, node.name, node, named[node.name as keyof typeof named] ?? []] as const,
		),
);

it('finds the pictured workflows’ Contact Data nodes, and the journey opens those workflows', () => {
	expect(nodes.map(([, name]) => name)).toEqual([
		'Search VPs of Engineering',
		'Unlock within 25 credits',
		'Search two managers',
		'Unlock the prospects',
	]);
	const lib = readRepoFile('scripts/n8n/lib.sh');
	for (const { workflow } of PICTURED) expect(lib).toContain(`n8n_import_workflow ${workflow}`);
});

it.each(nodes)('%s, %s: the version a new node gets', (_workflow, _name, node) => {
	expect(node.typeVersion).toBe(newNodeVersion(CONTACT_DATA));
});

it.each(nodes)(
	'%s, %s: defaults but for what the caption names',
	(_workflow, _name, node, named) => {
		const defaults = defaultsOf(node);
		const changed = Object.keys(node.parameters).filter(
			(name) => JSON.stringify(node.parameters[name]) !== JSON.stringify(defaults[name]),
		);
		expect(changed.filter((name) => !named.includes(name))).toEqual([]);
	},
);
