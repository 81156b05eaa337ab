/**
 * The per-item values of perItemParameters.ts, read the way the node's version says: at a field of
 * each input item, or from a parameter per item. A reader is set up once a run, called per item.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { OperationError } from '../client/failures';
import {
	CONTACT_IDS,
	EMAIL,
	LINKEDIN_URL,
	type PerItemValue,
} from '../parameters/perItemParameters';
import { fromVersion2, fromVersion2_1, isToolCopy } from '../parameters/versions';
import { contactIdsOf, refused, showValue, textOf, type Where } from '../parameters/values';
import { usesExpression } from './items';

/** Dotted paths reach into objects and arrays; a key with dots in it is found first. */
function valueAtPath(json: IDataObject, path: string): { found: boolean; value?: unknown } {
	if (hasOwn(json, path)) return { found: true, value: json[path] };
	let value: unknown = json;
	for (const part of path.split('.')) {
		if (!hasOwn(value, part)) return { found: false };
		value = (value as IDataObject)[part];
	}
	return { found: true, value };
}

const hasOwn = (value: unknown, key: string) =>
	typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key);

/** At a field of each item (its name read once), or a parameter per item. */
type Source = { field: string } | { parameter: INodeProperties };

function sourceOf(context: IExecuteFunctions, { from, field, value }: PerItemValue): Source {
	const node = context.getNode();
	const asValue = { parameter: value };
	if (!fromVersion2(node)) return asValue;
	if (!fromVersion2_1(node)) {
		const atField = context.getNodeParameter(from.name, 0, from.default) === from.default;
		return atField ? { field: fieldNameOf(context, field) } : asValue;
	}
	// 2.1: a tool's value comes from the model; on the canvas, an expression gives each item's value.
	if (isToolCopy(node)) return asValue;
	if (usesExpression(context, [field.name])) return { parameter: field };
	return { field: fieldNameOf(context, field) };
}

/** A field name parameter, read once per run; one not required may be empty. */
function fieldNameOf(
	context: IExecuteFunctions,
	{ name, displayName, default: fallback, required }: INodeProperties,
): string {
	const value = context.getNodeParameter(name, 0, fallback);
	if (typeof value === 'string' && (value.trim() !== '' || !required)) return value.trim();
	throw refused(
		{ context, itemIndex: 0 },
		displayName,
		value,
		'is not the name of a field',
		'Give the name of a field of the input items, such as id.',
	);
}

/** Names the item's own fields to pick from. */
function missingField(
	where: Where,
	displayName: string,
	field: string,
	json: IDataObject,
	advice: string,
): OperationError {
	const keys = Object.keys(json);
	const has = keys.length
		? `The item has the fields ${keys.slice(0, 12).join(', ')}${keys.length > 12 ? ', …' : ''}.`
		: 'The item is empty.';
	return refused(where, displayName, field, 'is not a field of the input item', `${has} ${advice}`);
}

export function contactIdsReader(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): (itemIndex: number) => string[] {
	const node = context.getNode();
	const source = sourceOf(context, CONTACT_IDS);
	if ('parameter' in source) {
		const { name, displayName } = source.parameter;
		return (itemIndex) =>
			contactIdsOf({ context, itemIndex }, displayName, context.getNodeParameter(name, itemIndex));
	}
	const { field } = source;
	const advice = `Set Contact ID Field to the field that holds the contact ID, or ${
		fromVersion2_1(node)
			? 'use an expression in it that gives the IDs'
			: 'choose Contact IDs From → An Expression'
	}.`;
	return (itemIndex) => {
		const json = items[itemIndex].json;
		const { found, value } = valueAtPath(json, field);
		if (!found) throw missingField({ context, itemIndex }, 'Contact ID Field', field, json, advice);
		return contactIdsOf({ context, itemIndex }, `Contact ID Field "${field}"`, value);
	};
}

export interface Person {
	email: string;
	linkedinUrl: string;
	/** The parameter each value came from, as errors about it name it. */
	names: { email: string; linkedin_url: string };
}

interface TextReader {
	/** As errors name it. */
	name: string;
	/** When read at a field. */
	field?: string;
	read: (json: IDataObject, where: Where) => string;
}

function textReader(context: IExecuteFunctions, parameters: PerItemValue): TextReader {
	const source = sourceOf(context, parameters);
	if ('parameter' in source) {
		const name = source.parameter.displayName;
		const read = (_: IDataObject, where: Where) =>
			textOf(where, name, context.getNodeParameter(source.parameter.name, where.itemIndex, ''));
		return { name, read };
	}
	const { field } = source;
	const name = `${parameters.field.displayName} "${field}"`;
	const read = (json: IDataObject, where: Where) =>
		textOf(where, name, field ? valueAtPath(json, field).value : undefined);
	return { name, field, read };
}

export function personReader(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): (itemIndex: number) => Person {
	const email = textReader(context, EMAIL);
	const linkedinUrl = textReader(context, LINKEDIN_URL);
	const names = { email: email.name, linkedin_url: linkedinUrl.name };
	// Read at fields, an item with neither is named here; from parameters the request's check names it.
	const fields = [email.field, linkedinUrl.field];
	const atFields = fields.every((field) => field !== undefined);
	return (itemIndex) => {
		const json = items[itemIndex].json;
		const where = { context, itemIndex };
		const person = { email: email.read(json, where), linkedinUrl: linkedinUrl.read(json, where) };
		if (atFields && !person.email && !person.linkedinUrl)
			throw noPerson(where, names, fields as string[], json);
		return { ...person, names };
	};
}

function noPerson(
	where: Where,
	names: Person['names'],
	fields: string[],
	json: IDataObject,
): OperationError {
	const found = fields
		.filter(Boolean)
		.map((field) => `"${field}": ${showValue(valueAtPath(json, field).value)}`);
	const keys = Object.keys(json).slice(0, 12).join(', ');
	const orExpressions = fromVersion2_1(where.context.getNode())
		? 'use an expression in one of them that gives the value'
		: 'choose Person From → Expressions';
	return new OperationError(
		where.context,
		`${names.email} and ${names.linkedin_url}: the input item has neither an email nor a LinkedIn URL (${found.join(', ')})`,
		{
			itemIndex: where.itemIndex,
			description: `Enrich needs one of them. The item has the fields ${keys || '(none)'}. Set Email Field or LinkedIn URL Field to the item's field, or ${orExpressions}. Nothing was sent.`,
		},
	);
}
