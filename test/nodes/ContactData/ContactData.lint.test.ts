/**
 * n8n's lint sees everything n8n loads. `n8n-node lint` reads the source, where options lists sit
 * behind `satisfies` and most properties are built by functions, so its rules see little of them.
 * Here the built descriptions (each node class's `description`, which holds all its versions, and
 * the credential) are written out as literals and linted by the same configuration: no finding.
 * A deliberately wrong copy, linted in the same run, shows the rules are at work.
 */
import type { ICredentialType, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { ContactDataApi } from '../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../nodes/ContactData/ContactData.node';
import { ContactDataPollTrigger } from '../../../nodes/ContactData/ContactDataPollTrigger.node';
import { ContactDataTrigger } from '../../../nodes/ContactData/ContactDataTrigger.node';
import { Code, lintLiterals, literalOf, type Finding } from '../../support/literalLint.cjs';

const MAIN = new Code('NodeConnectionTypes.Main');

/** A node class as a file, its description a literal; `members` are written after it as they are. */
function nodeFile(className: string, description: INodeTypeDescription, members = ''): string {
	const connections = (list: INodeTypeDescription['inputs']) =>
		Array.isArray(list) ? list.map((type) => (type === 'main' ? MAIN : type)) : list;
	const written = {
		...description,
		inputs: connections(description.inputs),
		outputs: connections(description.outputs),
	};
	return [
		"import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';",
		'',
		`export class ${className} implements INodeType {`,
		`\tdescription: INodeTypeDescription = ${literalOf(written, '\t')};${members}`,
		'}',
		'',
	].join('\n');
}

/** The trigger's webhook methods by name: the lint asks that they exist; their code is not its subject. */
function webhookMethodsOf(trigger: ContactDataTrigger): string {
	const methods = Object.keys(trigger.webhookMethods.default).map(
		(name) => `\t\t\tasync ${name}(): Promise<boolean> {\n\t\t\t\treturn true;\n\t\t\t},`,
	);
	return `\n\n\twebhookMethods = {\n\t\tdefault: {\n${methods.join('\n')}\n\t\t},\n\t};`;
}

function credentialFile(credential: ICredentialType): string {
	const { name, displayName, icon, documentationUrl, properties } = credential;
	const fields = Object.entries({ name, displayName, icon, documentationUrl }).map(
		([field, value]) => `\t${field} = ${literalOf(value, '\t')};\n`,
	);
	return [
		"import type { ICredentialType, INodeProperties } from 'n8n-workflow';",
		'',
		'export class ContactDataApi implements ICredentialType {',
		...fields,
		`\tproperties: INodeProperties[] = ${literalOf(properties, '\t')};`,
		'}',
		'',
	].join('\n');
}

const trigger = new ContactDataTrigger();
const BUILT: Record<string, string> = {
	'nodes/ContactData/ContactData.node.ts': nodeFile('ContactData', new ContactData().description),
	'nodes/ContactData/ContactDataTrigger.node.ts': nodeFile(
		'ContactDataTrigger',
		trigger.description,
		webhookMethodsOf(trigger),
	),
	'nodes/ContactData/ContactDataPollTrigger.node.ts': nodeFile(
		'ContactDataPollTrigger',
		new ContactDataPollTrigger().description,
	),
	'credentials/ContactDataApi.credentials.ts': credentialFile(new ContactDataApi()),
};

/** One parameter wrong three ways, each a rule of n8n's: an action, a final period, "Id". */
const WRONG_ACTION = 'Unlock Contacts In Bulk';
const WRONG_DESCRIPTION = 'The contact Id to read. One per item';
const wrongProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [{ name: 'Unlock', value: 'unlock', action: WRONG_ACTION }],
	default: 'unlock',
	description: WRONG_DESCRIPTION,
};
const WRONG_FILE = 'nodes/Wrong/Wrong.node.ts';
const WRONG: Record<string, string> = {
	[WRONG_FILE]: nodeFile('Wrong', {
		...new ContactData().description,
		displayName: 'Wrong',
		name: 'wrong',
		properties: [wrongProperty],
	}),
};

let findings: Finding[];
beforeAll(async () => {
	findings = await lintLiterals({ ...BUILT, ...WRONG });
}, 120_000);

const written = (finding: Finding) =>
	`${finding.file}:${finding.line} ${finding.ruleId}: ${finding.message} | ${finding.text}`;

it('writes every part of the built descriptions out, with unquoted keys', () => {
	const node = BUILT['nodes/ContactData/ContactData.node.ts'];
	const { properties } = new ContactData().description;
	expect(node).toMatch(/^\s+displayName: "Operation",$/m);
	expect(node).not.toMatch(/^\s+"\w+":/m);
	for (const { displayName } of properties) expect(node).toContain(JSON.stringify(displayName));
});

it('finds nothing in the built descriptions of the three nodes and the credential', () => {
	expect(findings.filter(({ file }) => file in BUILT).map(written)).toEqual([]);
});

it('flags a wrong action, a missing final period and "Id" in the same run', () => {
	const flagged = findings.filter(({ file }) => file === WRONG_FILE);
	expect(flagged.map(({ ruleId, text }) => [ruleId, text]).sort()).toEqual(
		[
			['n8n-nodes-base/node-param-description-miscased-id', `description: "${WRONG_DESCRIPTION}",`],
			[
				'n8n-nodes-base/node-param-description-missing-final-period',
				`description: "${WRONG_DESCRIPTION}",`,
			],
			['n8n-nodes-base/node-param-operation-option-action-miscased', `action: "${WRONG_ACTION}",`],
		].sort(),
	);
});
