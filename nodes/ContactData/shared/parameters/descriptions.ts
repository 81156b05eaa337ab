/** Parameters that several operations share, and their checked reading. */
import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	CREDIT_COST,
	ID_PREFIXES,
	LIMITS,
	LIST_ID_PATTERN,
	type UnlockLevel,
} from '../client/contract';
import { refused, tooLongForAnId, wholeNumber, type Choice } from './values';

/** An example of a saved list ID, as the service writes them. */
const LIST_ID_EXAMPLE = `${ID_PREFIXES.list}4f9c2a7d1b3e8f60`;

/** The one saved-list picker of every node (the triggers' Saved Lists to Watch hold one each). */
export function savedListPicker(
	name: string,
	more: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: 'Saved List',
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		...more,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a saved list…',
				typeOptions: { searchListMethod: 'searchSavedLists', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${LIST_ID_EXAMPLE}`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: LIST_ID_PATTERN.source,
							errorMessage: `A saved list ID is ${ID_PREFIXES.list} followed by letters, digits, _ or -`,
						},
					},
				],
			},
		],
	};
}

export const SAVED_LIST_PARAMETER = savedListPicker('listId', {
	displayOptions: {
		show: {
			resource: ['savedList'],
			operation: ['get', 'delete', 'addContacts', 'removeContacts', 'export'],
		},
	},
	description: 'The saved list to use',
});

/** Checked: the id goes into the path. */
export function savedListIdOf(context: IExecuteFunctions, itemIndex: number): string {
	const value: unknown = context.getNodeParameter('listId', itemIndex, '', { extractValue: true });
	const id = typeof value === 'string' ? value.trim() : '';
	const expected = `pick the list, or type its ID, e.g. ${LIST_ID_EXAMPLE}`;
	const whereFrom = `A list ID is ${ID_PREFIXES.list} followed by letters, digits, _ or -: the id field of Saved List → Get Many.`;
	if (id.length > LIMITS.idMaxLength) {
		throw refused({ context, itemIndex }, 'Saved List', value, tooLongForAnId, expected, whereFrom);
	}
	if (LIST_ID_PATTERN.test(id)) return id;
	throw refused(
		{ context, itemIndex },
		'Saved List',
		value,
		'is not a saved list ID',
		expected,
		whereFrom,
	);
}

const LEVEL_CHOICES = [
	{
		name: 'Basic',
		value: 'basic',
		description: `Email, email status and LinkedIn URL (${CREDIT_COST.basic} credit per new contact)`,
	},
	{
		name: 'Premium',
		value: 'premium',
		description: `Basic plus phone, mobile phone and work history (${CREDIT_COST.premium} credits per new contact)`,
	},
];

export function levelOf(context: IExecuteFunctions, itemIndex: number): UnlockLevel {
	return optionParameter(context, 'level', 'Level', itemIndex, LEVEL_CHOICES, 'basic');
}

export function maxCreditsOf(context: IExecuteFunctions, itemIndex: number): number {
	const maxCredits = context.getNodeParameter('maxCredits', itemIndex, 100);
	return wholeNumber({ context, itemIndex }, 'Max Credits', maxCredits, { min: 0 });
}

/** "true"/"false" from an expression are taken, anything else refused. */
export function booleanParameter(
	context: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
	fallback = false,
): boolean {
	const value = context.getNodeParameter(name, itemIndex, fallback);
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	const expected = 'type true or false, e.g. {{ $json.active === "yes" }}';
	throw refused({ context, itemIndex }, displayName, value, 'is not true or false', expected);
}

export function optionParameter<T extends string>(
	context: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
	choices: readonly Choice[],
	fallback: T,
): T {
	const value = context.getNodeParameter(name, itemIndex, fallback);
	const found = choices.find((choice) => choice.value === value);
	if (found) return found.value as T;
	const listed = choices.map((choice) => `${choice.name} (${choice.value})`).join(', ');
	const expected = `pick one, or type its value, e.g. ${choices[0].value}`;
	const problem = 'is not one of the choices';
	throw refused(
		{ context, itemIndex },
		displayName,
		value,
		problem,
		expected,
		`The choices: ${listed}.`,
	);
}

const CHARGING = { show: { resource: ['contact'], operation: ['unlock', 'enrich'] } };

export const LEVEL_PARAMETER: INodeProperties = {
	displayName: 'Level',
	name: 'level',
	type: 'options',
	required: true,
	default: 'basic',
	displayOptions: CHARGING,
	options: LEVEL_CHOICES,
	description:
		'How much of each record to unlock (read once per run, from the first item). A contact you already hold at this level or higher costs nothing.',
};

/** How the ceiling holds (worst cases, lost answers, agent tool calls) is in docs/node.md. */
export const MAX_CREDITS_PARAMETER: INodeProperties = {
	displayName: 'Max Credits',
	name: 'maxCredits',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 100,
	required: true,
	displayOptions: CHARGING,
	description:
		'The most credits one run may spend, read from the first item: a hard ceiling. As an AI agent’s tool, it caps all Contact Data tool calls of one execution together.',
};

/** n8n's standard Simplify: both triggers' (their items are alike) and Contact's. */
export const SIMPLIFY_OPTION: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

export function returnAllAndLimit(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			displayOptions,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			displayOptions: { ...displayOptions, show: { ...displayOptions.show, returnAll: [false] } },
			description: 'Max number of results to return',
		},
	];
}

/** The option values are read in shared/budget/. */
export function whenMaxCreditsReachedParameter(
	displayOptions: IDisplayOptions,
	whatFits: { name: string; description: string },
): INodeProperties {
	return {
		displayName: 'When Max Credits Is Reached',
		name: 'whenMaxCreditsReached',
		type: 'options',
		default: 'stop',
		displayOptions,
		required: true,
		// Sorted by name, as n8n's rules ask (Enrich What Fits, Stop Before Spending, Unlock What Fits).
		options: [
			{
				name: 'Stop Before Spending',
				value: 'stop',
				description:
					'Check the whole run first; when it could cost more than Max Credits, send nothing and stop the run',
			},
			{ name: whatFits.name, value: 'whatFits', description: whatFits.description },
		].sort((a, b) => a.name.localeCompare(b.name)),
		description:
			'What to do when the run could cost more than Max Credits. Read once per run, from the first item.',
	};
}

export function resultLimitOf(context: IExecuteFunctions, itemIndex: number): number {
	if (booleanParameter(context, 'returnAll', 'Return All', itemIndex)) return Infinity;
	const limit = context.getNodeParameter('limit', itemIndex, 50);
	return wholeNumber({ context, itemIndex }, 'Limit', limit, { min: 1 });
}
