/**
 * Simplify (Search, Unlock and Enrich): each contact as one flat item, the fields people map first.
 * The triggers flatten an event's contact the same way, keeping its fields: users map them.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { unlockedContactSchema } from '../client/contract';
import { SIMPLIFY_OPTION } from '../parameters/descriptions';
import { choicesOf } from '../parameters/filterParameters';
import {
	AS_TOOL,
	BEFORE_VERSION_2_1,
	BEFORE_VERSION_2_2,
	FROM_VERSION_2_1,
	FROM_VERSION_2_2,
	ON_CANVAS,
	fromVersion2_1,
	fromVersion2_2,
	shownWhen,
} from '../parameters/versions';

const showFor = { show: { resource: ['contact'], operation: ['search', 'unlock', 'enrich'] } };

/** As n8n's guideline names them; agent/toolAnswer.ts applies them. */
export const TOOL_OUTPUT_CHOICES = [
	{ name: 'Raw', value: 'raw', description: 'Return every field of each contact' },
	{
		name: 'Selected Fields',
		value: 'selectedFields',
		description: 'Return the contact ID and the fields you select',
	},
	{
		name: 'Simplified',
		value: 'simplified',
		description: 'Return at most 10 fields of each contact, the ones used most',
	},
] as const;

/** The fields of an unlocked record (its id always comes). */
export const SELECTABLE_FIELDS = choicesOf(
	Object.keys(unlockedContactSchema.shape).filter((field) => field !== 'id'),
);

const asToolFrom2_1 = shownWhen(showFor, AS_TOOL, FROM_VERSION_2_1);

/**
 * On by default from 2.2, as n8n's rule (node-param-default-wrong-for-simplify) and its own nodes
 * have it; a tool's Simplify is on by default; from 2.1 a tool has Output instead.
 */
export const SIMPLIFY_PARAMETERS: INodeProperties[] = [
	{ ...SIMPLIFY_OPTION, displayOptions: shownWhen(showFor, ON_CANVAS, BEFORE_VERSION_2_2) },
	{
		...SIMPLIFY_OPTION,
		default: true,
		displayOptions: shownWhen(showFor, ON_CANVAS, FROM_VERSION_2_2),
	},
	{
		...SIMPLIFY_OPTION,
		default: true,
		displayOptions: shownWhen(showFor, AS_TOOL, BEFORE_VERSION_2_1),
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		noDataExpression: true,
		default: 'simplified',
		displayOptions: asToolFrom2_1,
		options: [...TOOL_OUTPUT_CHOICES],
		description: 'How much of each contact the agent gets: fewer fields leave it more room',
	},
	{
		displayName: 'Fields',
		name: 'outputFields',
		type: 'multiOptions',
		default: [],
		displayOptions: shownWhen(asToolFrom2_1, { output: ['selectedFields'] }),
		options: SELECTABLE_FIELDS,
		description: 'The fields of each contact the agent gets, besides its ID',
	},
];

/** Shown flat or left out (work history, unlock time); keys added since follow. */
const FLATTENED = new Set(Object.keys(unlockedContactSchema.shape));

/** A search preview has no email to show, it shows has_email. */
function present(fields: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** A preview or an unlocked record as a flat item; other keys of the item stay after it. */
export function simplifyContact(json: IDataObject): IDataObject {
	if (typeof json.id !== 'string' || (json.first_name === undefined && json.company === undefined))
		return json;
	// Any JSON value but null reads as having no such fields.
	const company = (json.company ?? {}) as IDataObject;
	const location = (json.location ?? {}) as IDataObject;
	const name = [json.first_name, json.last_name]
		.filter((part) => typeof part === 'string' && part)
		.join(' ');
	const rest = Object.fromEntries(Object.entries(json).filter(([key]) => !FLATTENED.has(key)));
	const asIs = (keys: string[]) => Object.fromEntries(keys.map((key) => [key, json[key]]));
	return present({
		name: name || null,
		title: json.title,
		company_name: company.name,
		email: json.email,
		phone: json.phone ?? json.mobile_phone,
		linkedin_url: json.linkedin_url,
		...asIs(['id', 'first_name', 'last_name', 'seniority', 'department']),
		company_domain: company.domain,
		country: location.country,
		...asIs(['email_status', 'mobile_phone', 'has_email', 'has_phone', 'unlocked', 'level']),
		...rest,
	});
}

/**
 * Version 2.1's simplified item, by the guideline: at most 10 fields, in the order people map them,
 * then what a workflow branches on (matched, unlock_skipped). The id comes 7th, so it is always kept.
 */
const FIRST_FIELDS = [
	'name',
	'title',
	'company_name',
	'email',
	'phone',
	'linkedin_url',
	'id',
	'matched',
	'unlock_skipped',
];
const LATER_FIELDS = [
	'email_status',
	'company_domain',
	'seniority',
	'country',
	'unlocked',
	'has_email',
	'has_phone',
];
/** 2.2's: what the run cost (Unlock, Enrich) comes before, as Simplify is on by default. */
const COST_FIELDS = ['credits_charged_in_run', 'credits_remaining'];
const MAX_SIMPLIFIED_FIELDS = 10;

function simplifiedTo(fieldOrder: string[]) {
	return (json: IDataObject): IDataObject => {
		const flat = simplifyContact(json);
		if (flat === json) return json;
		const fields = fieldOrder.filter((key) => flat[key] !== undefined);
		const kept = fields.slice(0, MAX_SIMPLIFIED_FIELDS);
		return Object.fromEntries(kept.map((key) => [key, flat[key]]));
	};
}

export const simplifiedContact = simplifiedTo([...FIRST_FIELDS, ...LATER_FIELDS]);
const simplifiedContact2_2 = simplifiedTo([...FIRST_FIELDS, ...COST_FIELDS, ...LATER_FIELDS]);

/** Error items pass unchanged. */
export function simplifyOutput(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): INodeExecutionData[] {
	const node = context.getNode();
	if (!(context.getNodeParameter('simplify', 0, false) as boolean)) return items;
	const simplify = fromVersion2_2(node)
		? simplifiedContact2_2
		: fromVersion2_1(node)
			? simplifiedContact
			: simplifyContact;
	return items.map((item) => ({ ...item, json: simplify(item.json) }));
}

/** The 10 fields at most a model needs to decide and act. */
export function agentContact(json: IDataObject): IDataObject {
	const flat = simplifyContact(json);
	return present({
		id: flat.id,
		name: flat.name || undefined,
		title: flat.title,
		company: flat.company_name,
		domain: flat.company_domain,
		email: flat.email,
		phone: flat.phone ?? flat.mobile_phone,
		linkedin_url: flat.linkedin_url,
		seniority: flat.seniority,
		unlocked: flat.unlocked,
	});
}
