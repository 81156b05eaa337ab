/**
 * Where an operation finds the value it needs from each input item. Version 1 reads an expression
 * per item (`={{ $json.id }}`), which n8n evaluates for every item (about 0.2–0.5 ms each with its
 * default engine). From version 2 the default names a field of each item, read directly (about a
 * microsecond), and an expression stays possible.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ID_PREFIXES } from '../client/contract';

export const VERSION_1 = { '@version': [1] };
export const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };

/** The two ways of giving a per-item value: the option values of "… From". */
export type ValueSource = 'field' | 'expression';

function shown(displayOptions: IDisplayOptions, extra: Record<string, unknown[]>): IDisplayOptions {
	return { ...displayOptions, show: { ...displayOptions.show, ...extra } } as IDisplayOptions;
}

const FROM_AI_IDS = `={{ $fromAI('contact_ids', 'The contact IDs (${ID_PREFIXES.contact}…, the id of each contact in a search answer), separated by commas', 'string') }}`;

const DOTTED = 'A dotted path such as contact.id reaches into an object';

/** Version 1's Contact IDs parameter, and version 2's when the IDs come from an expression. */
function contactIdsExpression(
	displayOptions: IDisplayOptions,
	description: string,
	show: Record<string, unknown[]>,
	value = '={{ $json.id }}',
): INodeProperties {
	return {
		displayName: 'Contact IDs',
		name: 'contactIds',
		type: 'string',
		default: value,
		required: true,
		displayOptions: shown(displayOptions, show),
		description: `${description} One ID (${ID_PREFIXES.contact}…), an array of IDs, or IDs separated by commas, per input item`,
	};
}

/** "Contact IDs From": a field of each item (the default) or an expression; an agent's tool has its own copy. */
function contactIdsFrom(displayOptions: IDisplayOptions, description: string, tool: boolean): INodeProperties {
	return {
		displayName: 'Contact IDs From',
		name: 'contactIdsFrom',
		type: 'options',
		required: true,
		noDataExpression: true,
		default: 'field',
		displayOptions: shown(displayOptions, { ...FROM_VERSION_2, '@tool': [tool] }),
		options: [
			{
				name: 'A Field of Each Item',
				value: 'field',
				description: 'Read the IDs from a field of each input item (fast: no expression per item)',
			},
			{ name: 'An Expression', value: 'expression', description: 'Work out the IDs of each item with an expression' },
		],
		description: description,
	};
}

/**
 * Contact IDs: version 1 keeps its parameter as it was; version 2 adds "Contact IDs From" (a field of
 * each item by default, `id` as Search and Unlock output it, or an expression).
 */
export function contactIdsParameters(displayOptions: IDisplayOptions, description: string): INodeProperties[] {
	return [
		contactIdsExpression(displayOptions, description, VERSION_1),
		contactIdsFrom(displayOptions, description, false),
		// An agent's tool gets its IDs from the model: an expression ($fromAI) by default.
		{ ...contactIdsFrom(displayOptions, description, true), default: 'expression' },
		{
			displayName: 'Contact ID Field',
			name: 'contactIdField',
			type: 'string',
			default: 'id',
			required: true,
			displayOptions: shown(displayOptions, { ...FROM_VERSION_2, contactIdsFrom: ['field'] }),
			description: `The field of each input item holding its contact ID (${ID_PREFIXES.contact}…), an array of IDs, or IDs separated by commas; read once per run, from the first item. ${DOTTED}.`,
		},
		contactIdsExpression(displayOptions, description, { ...FROM_VERSION_2, '@tool': [false], contactIdsFrom: ['expression'] }),
		contactIdsExpression(displayOptions, description, { ...FROM_VERSION_2, '@tool': [true], contactIdsFrom: ['expression'] }, FROM_AI_IDS),
	];
}

/** "Person From": fields of each item (the default) or expressions; an agent's tool has its own copy. */
function personFrom(displayOptions: IDisplayOptions, tool: boolean): INodeProperties {
	return {
		displayName: 'Person From',
		name: 'personFrom',
		type: 'options',
		required: true,
		noDataExpression: true,
		default: 'fields',
		displayOptions: shown(displayOptions, { ...FROM_VERSION_2, '@tool': [tool] }),
		options: [
			{
				name: 'Fields of Each Item',
				value: 'fields',
				description: 'Read the email and LinkedIn URL from fields of each input item (fast: no expression per item)',
			},
			{ name: 'Expressions', value: 'expression', description: 'Give the email and LinkedIn URL as values or expressions' },
		],
		description: 'Where the email and LinkedIn URL of each person to find come from',
	};
}

/**
 * Enrich's person: version 2 adds "Person From" (fields of each item by default, `email` and
 * `linkedin_url` as the node outputs them, or expressions: version 1's Email and LinkedIn URL).
 */
export function personFromParameters(displayOptions: IDisplayOptions): INodeProperties[] {
	const fields = shown(displayOptions, { ...FROM_VERSION_2, personFrom: ['fields'] });
	return [
		personFrom(displayOptions, false),
		// An agent's tool gets the person from the model: expressions ($fromAI) by default.
		{ ...personFrom(displayOptions, true), default: 'expression' },
		{
			displayName: 'Email Field',
			name: 'emailField',
			type: 'string',
			default: 'email',
			placeholder: 'email',
			displayOptions: fields,
			description: `The field of each input item holding the work email; empty to use only the LinkedIn URL. Read once per run, from the first item. ${DOTTED}.`,
		},
		{
			displayName: 'LinkedIn URL Field',
			name: 'linkedinUrlField',
			type: 'string',
			default: 'linkedin_url',
			placeholder: 'linkedin_url',
			displayOptions: fields,
			description: `The field of each input item holding the LinkedIn profile URL; empty to use only the email. An item needs one of the two (the email wins when they point at different people). ${DOTTED}.`,
		},
	];
}

/**
 * Where Enrich shows its Email and LinkedIn URL, and their defaults: version 1, version 2's
 * Expressions on the canvas, and as an agent's tool (filled in by the model).
 */
export function personExpressionShow(
	displayOptions: IDisplayOptions,
): Array<{ displayOptions: IDisplayOptions; email: string; linkedinUrl: string }> {
	const expressions = (tool: boolean) => shown(displayOptions, { ...FROM_VERSION_2, '@tool': [tool], personFrom: ['expression'] });
	return [
		{ displayOptions: shown(displayOptions, VERSION_1), email: '', linkedinUrl: '' },
		{ displayOptions: expressions(false), email: '', linkedinUrl: '' },
		{
			displayOptions: expressions(true),
			email: "={{ $fromAI('email', 'The work email of the person to find; empty when you give the LinkedIn URL', 'string', '') }}",
			linkedinUrl: "={{ $fromAI('linkedin_url', 'The LinkedIn profile URL of the person to find; empty when you give the email', 'string', '') }}",
		},
	];
}
