/**
 * The Simplify option of Search, Unlock and Enrich: each contact as one flat item with the fields
 * people map first (name, title, company, email, phone, LinkedIn), on by default for an AI agent.
 * The trigger's Simplify flattens an event's contact the same way.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { withToolDefault } from '../parameters/versions';

/** Search, Unlock and Enrich: off by default on the canvas, on for an AI agent's tool. */
export const SIMPLIFY_PARAMETERS: INodeProperties[] = withToolDefault(
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		displayOptions: { show: { resource: ['contact'], operation: ['search', 'unlock', 'enrich'] } },
		description:
			'Whether to return each contact as one flat item, with name, title, company, email, phone and LinkedIn URL first, instead of the full record',
	},
	true,
);

function object(value: unknown): IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: {};
}

/** Keys of the record that the simplified item shows flat, or leaves out (work history, unlock time). */
const FLATTENED = new Set([
	'id',
	'first_name',
	'last_name',
	'title',
	'seniority',
	'department',
	'email',
	'email_status',
	'phone',
	'mobile_phone',
	'linkedin_url',
	'has_email',
	'has_phone',
	'unlocked',
	'level',
	'company',
	'location',
	'work_history',
	'unlocked_at',
]);

/** Only the keys the record has: a search preview has no email to show, it shows has_email. */
function present(fields: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** One contact record (a preview or an unlocked record) as a flat item; other keys of the item stay after it. */
export function simplifyContact(json: IDataObject): IDataObject {
	if (typeof json.id !== 'string' || (json.first_name === undefined && json.company === undefined))
		return json;
	const company = object(json.company);
	const location = object(json.location);
	const name = [json.first_name, json.last_name]
		.filter((part) => typeof part === 'string' && part)
		.join(' ');
	const rest = Object.fromEntries(Object.entries(json).filter(([key]) => !FLATTENED.has(key)));
	return present({
		name: name || null,
		title: json.title,
		company_name: company.name,
		email: json.email,
		phone: json.phone ?? json.mobile_phone,
		linkedin_url: json.linkedin_url,
		id: json.id,
		first_name: json.first_name,
		last_name: json.last_name,
		seniority: json.seniority,
		department: json.department,
		company_domain: company.domain,
		country: location.country,
		email_status: json.email_status,
		mobile_phone: json.mobile_phone,
		has_email: json.has_email,
		has_phone: json.has_phone,
		unlocked: json.unlocked,
		level: json.level,
		...rest,
	});
}

/** Applies the Simplify option to an operation's output items (error items pass unchanged). */
export function simplifyOutput(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): INodeExecutionData[] {
	if (!(context.getNodeParameter('simplify', 0, false) as boolean)) return items;
	return items.map((item) => ({ ...item, json: simplifyContact(item.json) }));
}

/** The fields of a contact an AI agent gets (at most 10): what a model needs to decide and to act. */
export const AGENT_FIELDS = [
	'id',
	'name',
	'title',
	'company',
	'domain',
	'email',
	'phone',
	'linkedin_url',
	'seniority',
	'unlocked',
];

/** One contact (full record, preview or simplified item) as the at most 10 fields of AGENT_FIELDS; absent ones are left out. */
export function agentContact(json: IDataObject): IDataObject {
	const company = object(json.company);
	const name =
		typeof json.name === 'string'
			? json.name
			: [json.first_name, json.last_name]
					.filter((part) => typeof part === 'string' && part)
					.join(' ');
	return present({
		id: json.id,
		name: name || undefined,
		title: json.title,
		company: json.company_name ?? company.name,
		domain: json.company_domain ?? company.domain,
		email: json.email,
		phone: json.phone ?? json.mobile_phone,
		linkedin_url: json.linkedin_url,
		seniority: json.seniority,
		unlocked: json.unlocked,
	});
}
