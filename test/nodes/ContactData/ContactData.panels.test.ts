/**
 * Existing workflows keep their values: for every operation, in each version, on the canvas and as an
 * AI agent's tool, and for each value source, the parameters the editor shows (in its order) and the
 * values a workflow saved with them reads, as n8n's NodeHelpers work them out. The snapshot was
 * written from the description before properties shown for several operations became one property;
 * version 2.1's, before version 2.2 was added.
 */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ContactData } from '../../../nodes/ContactData/ContactData.node';

const description = new ContactData().description;
/** The description n8n gives the node as an agent's tool: its name ends in "Tool" (what `@tool` tests). */
const asTool: INodeTypeDescription = { ...description, name: `${description.name}Tool` };

const fromIds = [{}, { contactIdsFrom: 'expression' }, { contactIdsFrom: 'field' }];

/** Each operation with the values that change what it shows. */
const OPERATIONS: Array<[string, string, INodeParameters[]]> = [
	['contact', 'search', [{}, { returnAll: true }]],
	['contact', 'unlock', fromIds],
	['contact', 'enrich', [{}, { personFrom: 'expression' }, { personFrom: 'fields' }]],
	['savedList', 'getMany', [{}, { returnAll: true }]],
	['savedList', 'get', [{}]],
	['savedList', 'create', [{}, ...fromIds.map((from) => ({ createFrom: 'contactIds', ...from }))]],
	['savedList', 'addContacts', fromIds],
	['savedList', 'removeContacts', fromIds],
	['savedList', 'delete', [{}]],
	['savedList', 'export', [{}, { outputAs: 'items' }, { outputAs: 'binary' }]],
	['credits', 'getBalance', [{}]],
	['credits', 'fileRefundClaim', [{}]],
];

/** What the editor shows for a node saved with `saved`, and the values the node reads. */
function panel(typeVersion: number, type: INodeTypeDescription, saved: INodeParameters) {
	const node = { typeVersion, parameters: saved } as unknown as INode;
	const values =
		NodeHelpers.getNodeParameters(description.properties, saved, true, false, node, type) ?? {};
	const shown = description.properties
		.filter((property) => NodeHelpers.displayParameter(values, property, node, type))
		// A notice by its name: its text may be reworded.
		.map(({ type, name, displayName }) => (type === 'notice' ? name : `${displayName} (${name})`));
	return { shown, values };
}

const cases = OPERATIONS.flatMap(([resource, operation, variants]) =>
	variants.flatMap((variant) =>
		[1, 2, 2.1].flatMap((typeVersion) =>
			[false, true].map((tool) => ({
				title: `${resource} → ${operation} ${JSON.stringify(variant)} v${typeVersion}${tool ? ' as tool' : ''}`,
				typeVersion,
				type: tool ? asTool : description,
				saved: { resource, operation, ...variant },
			})),
		),
	),
);

it.each(cases)('$title', ({ typeVersion, type, saved }) => {
	expect(panel(typeVersion, type, saved)).toMatchSnapshot();
});

// 60 up to version 2; 2.1 adds a tool's Output and its Fields, and its own Contact ID Field (for
// Unlock, Add and Remove Contacts; for Create), Email Field and LinkedIn URL Field: their hints say
// what an expression in them does, which version 2's do not. 2.2 adds Simplify on by default, the
// Filters section with the API's other filters in it, and File Refund Claim's Contact ID Field (and
// its tool's Contact ID from the model).
it('the built description has at most 70 properties (one property per parameter several operations show)', () => {
	expect(description.properties.length).toBeLessThanOrEqual(70);
});

it.each([
	['unlock', ['maxCreditsPerDay', 'maxCreditsPerSession', 'skipAlreadyUnlocked']],
	['enrich', ['maxCreditsPerDay', 'maxCreditsPerSession', 'outputNoMatch']],
])('Contact → %s offers its own Options, and only those', (operation, offered) => {
	const node = { typeVersion: 2, parameters: {} } as unknown as INode;
	const root = { resource: 'contact', operation };
	const options = description.properties.filter(
		(property) =>
			property.name === 'options' &&
			NodeHelpers.displayParameter(root, property, node, description),
	);
	expect(options).toHaveLength(1);
	const shown = (options[0].options as INodeProperties[])
		.filter((option) => NodeHelpers.displayParameter({}, option, node, description, root))
		.map(({ name }) => name);
	expect(shown).toEqual(offered);
});
