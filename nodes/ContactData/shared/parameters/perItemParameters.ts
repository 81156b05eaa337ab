/**
 * Each input item's contact IDs or person. Version 1 evaluates an expression per item (0.2–0.5 ms);
 * from 2 a field of each item is read directly (about a microsecond). A tool's come from the model.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { CREDIT_COST, ID_PREFIXES } from '../client/contract';
import {
	AS_TOOL,
	FROM_VERSION_2,
	FROM_VERSION_2_1,
	FROM_VERSION_2_2,
	ON_CANVAS,
	VERSION_1,
	VERSION_2,
	shownWhen,
} from './versions';

/**
 * n8n describes a tool to the model by its action ("Unlock contacts in Contact Data"), never by the
 * operation's description, so the arguments of the paid operations say the price. Unlock shares its
 * Contact IDs with the free Add and Remove Contacts: one text for all.
 */
const PRICE = `${CREDIT_COST.basic} credit at basic level, ${CREDIT_COST.premium} at premium, free if already unlocked, capped by Max Credits`;

/** n8n's rules refuse the word "id" in a description. */
const NESTED = 'For a field inside another, join the names with a dot: company.name';

/** In a sales-ops user's words: the field's name is read once and used for every item. */
const SAME_FIELD = 'Each item is read at this field: drag it here from the input.';
const OTHERWISE = (what: string) =>
	`${SAME_FIELD} Or switch to Expression to get each item's ${what}.`;

/** One value given per item: "… From" (its default chooses the field), field, expression. */
export interface PerItemValue {
	from: INodeProperties;
	field: INodeProperties;
	value: INodeProperties;
	fromAI: string;
	/** The value as 2.1's hint names it. */
	what: string;
}

export const CONTACT_IDS: PerItemValue = {
	from: {
		displayName: 'Contact IDs From',
		name: 'contactIdsFrom',
		type: 'options',
		required: true,
		noDataExpression: true,
		default: 'field',
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
	},
	field: {
		displayName: 'Contact ID Field',
		name: 'contactIdField',
		// A field dropped from the input panel gives its name, not an expression for its value.
		requiresDataPath: 'single',
		type: 'string',
		default: 'id',
		required: true,
		description: `The field of each input item that holds its contact ID (${ID_PREFIXES.contact}…), several IDs, or a list of them. ${NESTED}.`,
	},
	value: {
		displayName: 'Contact IDs',
		name: 'contactIds',
		type: 'string',
		default: '={{ $json.id }}',
		required: true,
	},
	fromAI: `={{ $fromAI('contact_ids', 'The contact IDs (${ID_PREFIXES.contact}…, the id of each contact in a search answer), separated by commas. To unlock, each contact costs ${PRICE}; saved lists are free.', 'string') }}`,
	what: 'contact IDs',
};

const PERSON_FROM: INodeProperties = {
	displayName: 'Person From',
	name: 'personFrom',
	type: 'options',
	required: true,
	noDataExpression: true,
	default: 'fields',
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

export const EMAIL: PerItemValue = {
	from: PERSON_FROM,
	field: {
		displayName: 'Email Field',
		name: 'emailField',
		requiresDataPath: 'single',
		type: 'string',
		default: 'email',
		placeholder: 'e.g. email',
		description: `The field of each input item that holds the work email; empty to use only the LinkedIn URL. ${NESTED}.`,
	},
	value: {
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'e.g. nathan@example.com',
		default: '',
		description:
			'The work email of the person to find. Give this, the LinkedIn URL, or both (the email wins when they point at different people).',
	},
	fromAI: `={{ $fromAI('email', 'The work email of the person to find; empty when you give the LinkedIn URL. The person found costs ${PRICE}; nothing when no one matches.', 'string', '') }}`,
	what: 'email',
};

export const LINKEDIN_URL: PerItemValue = {
	from: PERSON_FROM,
	field: {
		displayName: 'LinkedIn URL Field',
		name: 'linkedinUrlField',
		requiresDataPath: 'single',
		type: 'string',
		default: 'linkedin_url',
		placeholder: 'e.g. linkedin_url',
		description: `The field of each input item holding the LinkedIn profile URL; empty to use only the email. ${NESTED}.`,
	},
	value: {
		displayName: 'LinkedIn URL',
		name: 'linkedinUrl',
		type: 'string',
		placeholder: 'e.g. https://www.linkedin.com/in/ada-lovelace',
		default: '',
		description: 'The person’s LinkedIn profile URL (https://www.linkedin.com/in/…)',
	},
	fromAI:
		"={{ $fromAI('linkedin_url', 'The LinkedIn profile URL of the person to find; empty when you give the email', 'string', '') }}",
	what: 'LinkedIn URL',
};

/** Version 1's value parameters; version 2's "… From", fields and expressions; 2.1's fields. */
function perItemParameters(
	displayOptions: IDisplayOptions,
	values: PerItemValue[],
): INodeProperties[] {
	const { from } = values[0];
	const fromField = { [from.name]: [String(from.default)] };
	const version1 = shownWhen(displayOptions, VERSION_1);
	const version2 = shownWhen(displayOptions, VERSION_2);
	const atField = shownWhen(version2, fromField);
	const from2_1 = shownWhen(displayOptions, FROM_VERSION_2_1, ON_CANVAS);
	// The expression: version 2's when "… From" chose it; a tool's also from 2.1, which has no
	// "… From" (a parameter not shown has no value, so `hide` holds).
	const expression = shownWhen(displayOptions, ON_CANVAS, VERSION_2, {
		[from.name]: ['expression'],
	});
	const asTool = { ...shownWhen(displayOptions, AS_TOOL, FROM_VERSION_2), hide: fromField };
	return [
		...values.map(({ value }) => ({ ...value, displayOptions: version1 })),
		// n8n has no default per use: a tool's "… From" is a copy by `@tool`.
		{ ...from, displayOptions: shownWhen(version2, ON_CANVAS) },
		{ ...from, default: 'expression', displayOptions: shownWhen(version2, AS_TOOL) },
		...values.map(({ field }) => ({ ...field, displayOptions: atField, hint: SAME_FIELD })),
		...values.map(({ field, what }) => ({
			...field,
			displayOptions: from2_1,
			hint: OTHERWISE(what),
		})),
		...values.flatMap(({ value, fromAI }) => [
			{ ...value, displayOptions: expression },
			{ ...value, default: fromAI, displayOptions: asTool },
		]),
	];
}

/** One contact per item (File Refund Claim), taken from 2.2 as Unlock takes its Contact IDs. */
export const CONTACT_ID: PerItemValue = {
	...CONTACT_IDS,
	field: {
		...CONTACT_IDS.field,
		description: `The field of each input item that holds the contact ID (${ID_PREFIXES.contact}…) of the unlocked contact whose data was wrong. ${NESTED}.`,
	},
	value: {
		displayName: 'Contact ID',
		name: 'contactId',
		type: 'string',
		default: '',
		required: true,
		description: `The unlocked contact (${ID_PREFIXES.contact}…) whose data was wrong`,
	},
	fromAI: `={{ $fromAI('contact_id', 'The contact ID (${ID_PREFIXES.contact}…) of the unlocked contact whose data was wrong', 'string') }}`,
	what: 'contact ID',
};

/** 2.2's: a field of each item on the canvas (an expression in it gives each item's), the model's as a tool. */
export function contactIdParameters(displayOptions: IDisplayOptions): INodeProperties[] {
	const { field, value, fromAI, what } = CONTACT_ID;
	return [
		{
			...field,
			displayOptions: shownWhen(displayOptions, FROM_VERSION_2_2, ON_CANVAS),
			hint: OTHERWISE(what),
		},
		{
			...value,
			default: fromAI,
			displayOptions: shownWhen(displayOptions, FROM_VERSION_2_2, AS_TOOL),
		},
	];
}

export function contactIdsParameters(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties[] {
	const { from, value } = CONTACT_IDS;
	return perItemParameters(displayOptions, [
		{
			...CONTACT_IDS,
			from: { ...from, description },
			value: {
				...value,
				description: `${description}. One ID (${ID_PREFIXES.contact}…), an array of IDs, or IDs separated by commas, per input item.`,
			},
		},
	]);
}

export const CONTACT_IDS_PARAMETERS = contactIdsParameters(
	{
		show: {
			resource: ['contact', 'savedList'],
			operation: ['unlock', 'addContacts', 'removeContacts'],
		},
	},
	'The contacts to unlock, add or remove; by default the ID field of a search result',
);

export function personParameters(displayOptions: IDisplayOptions): INodeProperties[] {
	return perItemParameters(displayOptions, [EMAIL, LINKEDIN_URL]);
}
