/**
 * The per-item values of Unlock, Enrich, Add Contacts and Remove Contacts, read the way the node's
 * version and "… From" parameter say: from a field of each input item (read directly, no expression
 * per item), or from a parameter (version 1, or "An Expression"). Each reader is set up once per run
 * and then called for every item, before anything is sent.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import type { ValueSource } from '../parameters/perItemParameters';
import { fromVersion2 } from '../parameters/versions';
import {
	checkContactIds,
	refused,
	showValue,
	textOf,
	toContactIds,
	type Where,
} from '../parameters/values';

/** What an item holds at a field: dotted paths reach into objects and arrays; a key with dots in it is found first. */
export function valueAtPath(json: IDataObject, path: string): { found: boolean; value?: unknown } {
	if (Object.prototype.hasOwnProperty.call(json, path)) return { found: true, value: json[path] };
	let value: unknown = json;
	for (const part of path.split('.')) {
		if (
			value === null ||
			typeof value !== 'object' ||
			!Object.prototype.hasOwnProperty.call(value, part)
		) {
			return { found: false };
		}
		value = (value as IDataObject)[part];
	}
	return { found: true, value };
}

/** Where the run reads its per-item values: version 1 always reads its parameter. */
function sourceOf(context: IExecuteFunctions, name: string, fieldValue: string): ValueSource {
	if (!fromVersion2(context.getNode())) return 'expression';
	return context.getNodeParameter(name, 0, fieldValue) === fieldValue ? 'field' : 'expression';
}

/** A field name parameter, read once per run; `optional` ones may be empty. */
function fieldNameOf(
	context: IExecuteFunctions,
	name: string,
	displayName: string,
	fallback: string,
	optional = false,
): string {
	const value = context.getNodeParameter(name, 0, fallback);
	if (typeof value === 'string' && (value.trim() !== '' || optional)) return value.trim();
	throw refused(
		{ node: context.getNode(), itemIndex: 0 },
		displayName,
		value,
		'is not the name of a field',
		'Give the name of a field of the input items, such as id.',
	);
}

/** The error for an item without the field: it names the field, and the item's own fields to pick from. */
function missingField(
	where: Where,
	displayName: string,
	field: string,
	json: IDataObject,
	advice: string,
): NodeOperationError {
	const keys = Object.keys(json);
	const has = keys.length
		? `The item has the fields ${keys.slice(0, 12).join(', ')}${keys.length > 12 ? ', …' : ''}.`
		: 'The item is empty.';
	return refused(where, displayName, field, 'is not a field of the input item', `${has} ${advice}`);
}

/** Reads the contact ids of one input item, checked (ct_…, at least one). */
export type ContactIdsOf = (itemIndex: number) => string[];

/** The run's reader of contact ids: Contact ID Field (version 2's default) or the Contact IDs parameter. */
export function contactIdsReader(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): ContactIdsOf {
	const node = context.getNode();
	if (sourceOf(context, 'contactIdsFrom', 'field') === 'expression') {
		return (itemIndex) =>
			checkContactIds(
				node,
				toContactIds(context.getNodeParameter('contactIds', itemIndex)),
				'Contact IDs',
				itemIndex,
			);
	}
	const field = fieldNameOf(context, 'contactIdField', 'Contact ID Field', 'id');
	const advice =
		'Set Contact ID Field to the field that holds the contact ID, or choose Contact IDs From → An Expression.';
	return (itemIndex) => {
		const json = items[itemIndex].json;
		const { found, value } = valueAtPath(json, field);
		if (!found) throw missingField({ node, itemIndex }, 'Contact ID Field', field, json, advice);
		return checkContactIds(node, toContactIds(value), `Contact ID Field "${field}"`, itemIndex);
	};
}

/** What Enrich looks a person up by, and the names its errors give them. */
export interface Person {
	email: string;
	linkedinUrl: string;
	/** The parameter each value came from, as the editor shows it (for errors about the value). */
	names: { email: string; linkedin_url: string };
}

/** The run's reader of Enrich's person: Email Field and LinkedIn URL Field (version 2's default) or Email and LinkedIn URL. */
export function personReader(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): (itemIndex: number) => Person {
	const node = context.getNode();
	if (sourceOf(context, 'personFrom', 'fields') === 'expression') {
		const names = { email: 'Email', linkedin_url: 'LinkedIn URL' };
		return (itemIndex) => ({
			email: textOf(
				{ node, itemIndex },
				names.email,
				context.getNodeParameter('email', itemIndex, ''),
			),
			linkedinUrl: textOf(
				{ node, itemIndex },
				names.linkedin_url,
				context.getNodeParameter('linkedinUrl', itemIndex, ''),
			),
			names,
		});
	}
	const emailField = fieldNameOf(context, 'emailField', 'Email Field', 'email', true);
	const linkedinField = fieldNameOf(
		context,
		'linkedinUrlField',
		'LinkedIn URL Field',
		'linkedin_url',
		true,
	);
	const names = {
		email: `Email Field "${emailField}"`,
		linkedin_url: `LinkedIn URL Field "${linkedinField}"`,
	};
	const read = (json: IDataObject, where: Where, field: string, name: string) => {
		const value = field ? valueAtPath(json, field).value : undefined;
		return textOf(where, name, value);
	};
	return (itemIndex) => {
		const json = items[itemIndex].json;
		const where = { node, itemIndex };
		const email = read(json, where, emailField, names.email);
		const linkedinUrl = read(json, where, linkedinField, names.linkedin_url);
		if (!email && !linkedinUrl) throw noPerson(where, names, [emailField, linkedinField], json);
		return { email, linkedinUrl, names };
	};
}

/** An item with neither an email nor a LinkedIn URL at the fields named. */
function noPerson(
	where: Where,
	names: Person['names'],
	fields: string[],
	json: IDataObject,
): NodeOperationError {
	const found = fields
		.filter(Boolean)
		.map((field) => `"${field}": ${showValue(valueAtPath(json, field).value)}`);
	const keys = Object.keys(json).slice(0, 12).join(', ');
	return new NodeOperationError(
		where.node,
		`${names.email} and ${names.linkedin_url}: the input item has neither an email nor a LinkedIn URL (${found.join(', ')})`,
		{
			itemIndex: where.itemIndex,
			description: `Enrich needs one of them. The item has the fields ${keys || '(none)'}. Set Email Field or LinkedIn URL Field to the item's field, or choose Person From → Expressions. Nothing was sent.`,
		},
	);
}
