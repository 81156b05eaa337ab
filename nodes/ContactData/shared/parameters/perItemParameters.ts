/**
 * The parameters that give each input item's contact IDs (Unlock, Create, Add and Remove Contacts)
 * or person (Enrich). Version 1 reads an expression per item (`={{ $json.id }}`), which n8n
 * evaluates for every item (about 0.2–0.5 ms each with its default engine). From version 2 the
 * default names a field of each item, read directly (about a microsecond), and an expression stays
 * possible. items/perItemReaders.ts reads them.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ID_PREFIXES } from '../client/contract';
import { FROM_VERSION_2, VERSION_1, shownWhen, withToolDefault } from './versions';

/** The two ways of giving a per-item value: the option values of "… From". */
export type ValueSource = 'field' | 'expression';

const FROM_AI_IDS = `={{ $fromAI('contact_ids', 'The contact IDs (${ID_PREFIXES.contact}…, the id of each contact in a search answer), separated by commas', 'string') }}`;
const FROM_AI_EMAIL =
	"={{ $fromAI('email', 'The work email of the person to find; empty when you give the LinkedIn URL', 'string', '') }}";
const FROM_AI_LINKEDIN_URL =
	"={{ $fromAI('linkedin_url', 'The LinkedIn profile URL of the person to find; empty when you give the email', 'string', '') }}";

const DOTTED = 'A dotted path such as contact.id reaches into an object';

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
		description: `${description} One ID (${ID_PREFIXES.contact}…), an array of IDs, or IDs separated by commas, per input item`,
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
				description: 'Read the IDs from a field of each input item (fast: no expression per item)',
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
 * each item by default, `id` as Search and Unlock output it, or an expression). An agent's tool gets
 * its IDs from the model: an expression ($fromAI) by default.
 */
export function contactIdsParameters(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties[] {
	const fromVersion2 = shownWhen(displayOptions, FROM_VERSION_2);
	return [
		contactIdsExpression(shownWhen(displayOptions, VERSION_1), description),
		...withToolDefault(contactIdsFrom(fromVersion2, description), 'expression'),
		{
			displayName: 'Contact ID Field',
			name: 'contactIdField',
			requiresDataPath: 'single',
			type: 'string',
			default: 'id',
			required: true,
			displayOptions: shownWhen(fromVersion2, { contactIdsFrom: ['field'] }),
			description: `The field of each input item holding its contact ID (${ID_PREFIXES.contact}…), IDs or an array of IDs; read once per run, from the first item. ${DOTTED}.`,
		},
		...withToolDefault(
			contactIdsExpression(
				shownWhen(fromVersion2, { contactIdsFrom: ['expression'] }),
				description,
			),
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
	'The contacts to unlock, add or remove; by default the ID field of a search result.',
);

/** Email and LinkedIn URL as values or expressions: version 1's parameters, and version 2's "Expressions". */
function personExpressions(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			displayOptions,
			description:
				'The work email of the person to find. Give this, the LinkedIn URL, or both (the email wins when they point at different people).',
		},
		{
			displayName: 'LinkedIn URL',
			name: 'linkedinUrl',
			type: 'string',
			placeholder: 'https://www.linkedin.com/in/ada-lovelace',
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
					'Read the email and LinkedIn URL from fields of each input item (fast: no expression per item)',
			},
		],
		description: 'Where the email and LinkedIn URL of each person to find come from',
	};
}

/** The field name parameters of version 2's "Fields of Each Item". */
function personFields(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Email Field',
			name: 'emailField',
			requiresDataPath: 'single',
			type: 'string',
			default: 'email',
			placeholder: 'email',
			displayOptions,
			description: `The field of each input item holding the work email; empty to use only the LinkedIn URL. Read once per run, from the first item. ${DOTTED}.`,
		},
		{
			displayName: 'LinkedIn URL Field',
			name: 'linkedinUrlField',
			requiresDataPath: 'single',
			type: 'string',
			default: 'linkedin_url',
			placeholder: 'linkedin_url',
			displayOptions,
			description: `The field of each input item holding the LinkedIn profile URL; empty to use only the email. ${DOTTED}.`,
		},
	];
}

/**
 * Enrich's person: version 1 keeps Email and LinkedIn URL as they were; version 2 adds "Person From"
 * (fields of each item by default, `email` and `linkedin_url` as the node outputs them, or
 * expressions). An agent's tool gets the person from the model: expressions ($fromAI) by default.
 */
export function personParameters(displayOptions: IDisplayOptions): INodeProperties[] {
	const fromVersion2 = shownWhen(displayOptions, FROM_VERSION_2);
	const [email, linkedinUrl] = personExpressions(
		shownWhen(fromVersion2, { personFrom: ['expression'] }),
	);
	return [
		...personExpressions(shownWhen(displayOptions, VERSION_1)),
		...withToolDefault(personFrom(fromVersion2), 'expression'),
		...personFields(shownWhen(fromVersion2, { personFrom: ['fields'] })),
		...withToolDefault(email, FROM_AI_EMAIL),
		...withToolDefault(linkedinUrl, FROM_AI_LINKEDIN_URL),
	];
}
