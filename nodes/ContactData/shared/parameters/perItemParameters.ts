/**
 * The parameters that give each input item's contact IDs (Unlock, Create, Add and Remove Contacts)
 * or person (Enrich). Version 1 evaluates an expression per item (0.2–0.5 ms each); from version 2
 * the default names a field of each item, read directly (about a microsecond), an expression staying
 * possible: in version 2 through "… From", from 2.1 through n8n's Fixed/Expression switch.
 * items/perItemReaders.ts reads them.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { CREDIT_COST, ID_PREFIXES } from '../client/contract';
import {
	FROM_VERSION_2,
	FROM_VERSION_2_1,
	ON_CANVAS,
	VERSION_1,
	VERSION_2,
	shownWhen,
	withToolDefault,
} from './versions';

/**
 * The price as a model reads it. n8n describes a tool to the model by its action ("Unlock contacts
 * in Contact Data"), never by the operation's description, so the arguments of the paid operations
 * say it. Unlock shares its Contact IDs with the free Add and Remove Contacts: one text for all.
 */
const PRICE = `${CREDIT_COST.basic} credit at basic level, ${CREDIT_COST.premium} at premium, free if already unlocked, capped by Max Credits`;
const FROM_AI_IDS = `={{ $fromAI('contact_ids', 'The contact IDs (${ID_PREFIXES.contact}…, the id of each contact in a search answer), separated by commas. To unlock, each contact costs ${PRICE}; saved lists are free.', 'string') }}`;
const FROM_AI_EMAIL = `={{ $fromAI('email', 'The work email of the person to find; empty when you give the LinkedIn URL. The person found costs ${PRICE}; nothing when no one matches.', 'string', '') }}`;
const FROM_AI_LINKEDIN_URL =
	"={{ $fromAI('linkedin_url', 'The LinkedIn profile URL of the person to find; empty when you give the email', 'string', '') }}";

/** How a field inside another is named (n8n's rules refuse the word "id" in a description). */
const NESTED = 'For a field inside another, join the names with a dot: company.name';

const READ_ONCE = 'Read once, from the first item: all items use the same field.';
const orExpression = (what: string) =>
	`${READ_ONCE} For each item's own ${what}, use an expression.`;

/**
 * Version 2's expression parameter and its tool copy: on the canvas when "… From" chose it; for a
 * tool also from 2.1, which has no "… From" (a parameter not shown has no value, so `hide` holds).
 */
function expressionCopies(
	property: INodeProperties,
	from: string,
	fieldChoice: string,
	toolDefault: INodeProperties['default'],
): INodeProperties[] {
	const [onCanvas, asTool] = withToolDefault(property, toolDefault);
	const canvasShow = shownWhen(onCanvas.displayOptions ?? {}, VERSION_2, {
		[from]: ['expression'],
	});
	const toolShow = shownWhen(asTool.displayOptions ?? {}, FROM_VERSION_2);
	return [
		{ ...onCanvas, displayOptions: canvasShow },
		{ ...asTool, displayOptions: { ...toolShow, hide: { [from]: [fieldChoice] } } },
	];
}

/** Contact IDs as an expression: version 1's parameter, and version 2's "An Expression". */
function contactIdsExpression(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties {
	return {
		displayName: 'Contact IDs',
		name: 'contactIds',
		type: 'string',
		default: '={{ $json.id }}',
		required: true,
		displayOptions,
		description: `${description}. One ID (${ID_PREFIXES.contact}…), an array of IDs, or IDs separated by commas, per input item.`,
	};
}

/** "Contact IDs From": a field of each item (the default) or an expression. */
function contactIdsFrom(displayOptions: IDisplayOptions, description: string): INodeProperties {
	return {
		displayName: 'Contact IDs From',
		name: 'contactIdsFrom',
		type: 'options',
		required: true,
		noDataExpression: true,
		default: 'field',
		displayOptions,
		options: [
			{
				name: 'A Field of Each Item',
				value: 'field',
				description: 'Read the IDs from a field of each input item (the fastest way)',
			},
			{
				name: 'An Expression',
				value: 'expression',
				description: 'Work out the IDs of each item with an expression',
			},
		],
		description,
	};
}

/**
 * Contact IDs: version 1 keeps its parameter as it was; version 2 adds "Contact IDs From" (a field of
 * each item by default, `id` as Search and Unlock output it, or an expression); 2.1 has Contact ID
 * Field alone, Fixed or Expression. An agent's tool gets its IDs from the model ($fromAI).
 */
export function contactIdsParameters(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties[] {
	const version2 = shownWhen(displayOptions, VERSION_2);
	const field: INodeProperties = {
		displayName: 'Contact ID Field',
		name: 'contactIdField',
		// A field dropped from the input panel gives its name, not an expression for its value.
		requiresDataPath: 'single',
		type: 'string',
		default: 'id',
		required: true,
		description: `The field of each input item holding its contact ID (${ID_PREFIXES.contact}…), IDs or an array of IDs; read once per run, from the first item. ${NESTED}.`,
		hint: READ_ONCE,
	};
	return [
		contactIdsExpression(shownWhen(displayOptions, VERSION_1), description),
		...withToolDefault(contactIdsFrom(version2, description), 'expression'),
		{ ...field, displayOptions: shownWhen(version2, { contactIdsFrom: ['field'] }) },
		{
			...field,
			displayOptions: shownWhen(displayOptions, FROM_VERSION_2_1, ON_CANVAS),
			hint: orExpression('contact IDs'),
		},
		...expressionCopies(
			contactIdsExpression(displayOptions, description),
			'contactIdsFrom',
			'field',
			FROM_AI_IDS,
		),
	];
}

/** The Contact IDs parameters of Unlock, Add Contacts and Remove Contacts: one set for the three. */
export const CONTACT_IDS_PARAMETERS = contactIdsParameters(
	{
		show: {
			resource: ['contact', 'savedList'],
			operation: ['unlock', 'addContacts', 'removeContacts'],
		},
	},
	'The contacts to unlock, add or remove; by default the ID field of a search result',
);

/** Email and LinkedIn URL as values or expressions: version 1's parameters, and version 2's "Expressions". */
function personExpressions(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'e.g. nathan@example.com',
			default: '',
			displayOptions,
			description:
				'The work email of the person to find. Give this, the LinkedIn URL, or both (the email wins when they point at different people).',
		},
		{
			displayName: 'LinkedIn URL',
			name: 'linkedinUrl',
			type: 'string',
			placeholder: 'e.g. https://www.linkedin.com/in/ada-lovelace',
			default: '',
			displayOptions,
			description: 'The person’s LinkedIn profile URL (https://www.linkedin.com/in/…)',
		},
	];
}

/** "Person From": fields of each item (the default) or expressions. */
function personFrom(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Person From',
		name: 'personFrom',
		type: 'options',
		required: true,
		noDataExpression: true,
		default: 'fields',
		displayOptions,
		// Sorted by name, as n8n's rules ask; the default stays Fields of Each Item.
		options: [
			{
				name: 'Expressions',
				value: 'expression',
				description: 'Give the email and LinkedIn URL as values or expressions',
			},
			{
				name: 'Fields of Each Item',
				value: 'fields',
				description:
					'Read the email and LinkedIn URL from fields of each input item (the fastest way)',
			},
		],
		description: 'Where the email and LinkedIn URL of each person to find come from',
	};
}

/** The field name parameters of version 2's "Fields of Each Item", and of 2.1. */
function personFields(displayOptions: IDisplayOptions, from2_1 = false): INodeProperties[] {
	const hint = (what: string) => (from2_1 ? orExpression(what) : READ_ONCE);
	return [
		{
			displayName: 'Email Field',
			name: 'emailField',
			requiresDataPath: 'single',
			type: 'string',
			default: 'email',
			placeholder: 'e.g. email',
			displayOptions,
			description: `The field of each input item holding the work email; empty to use only the LinkedIn URL. Read once per run, from the first item. ${NESTED}.`,
			hint: hint('email'),
		},
		{
			displayName: 'LinkedIn URL Field',
			name: 'linkedinUrlField',
			requiresDataPath: 'single',
			type: 'string',
			default: 'linkedin_url',
			placeholder: 'e.g. linkedin_url',
			displayOptions,
			description: `The field of each input item holding the LinkedIn profile URL; empty to use only the email. ${NESTED}.`,
			hint: hint('LinkedIn URL'),
		},
	];
}

/**
 * Enrich's person: version 1 keeps Email and LinkedIn URL as they were; version 2 adds "Person From"
 * (fields of each item by default, `email` and `linkedin_url` as the node outputs them, or
 * expressions); 2.1 has the field parameters alone, each Fixed or Expression. An agent's tool gets
 * the person from the model ($fromAI).
 */
export function personParameters(displayOptions: IDisplayOptions): INodeProperties[] {
	const version2 = shownWhen(displayOptions, VERSION_2);
	const [email, linkedinUrl] = personExpressions(displayOptions);
	return [
		...personExpressions(shownWhen(displayOptions, VERSION_1)),
		...withToolDefault(personFrom(version2), 'expression'),
		...personFields(shownWhen(version2, { personFrom: ['fields'] })),
		...personFields(shownWhen(displayOptions, FROM_VERSION_2_1, ON_CANVAS), true),
		...expressionCopies(email, 'personFrom', 'fields', FROM_AI_EMAIL),
		...expressionCopies(linkedinUrl, 'personFrom', 'fields', FROM_AI_LINKEDIN_URL),
	];
}
