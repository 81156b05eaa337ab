/** The per-item values of perItemParameters.ts, read the way the node's version says. */
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
import { contactIdsOf, refused, showValue, textOf } from '../parameters/values';
import { checkEveryItem, forEachItem, usesExpression } from './items';

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

/** Set up once a run: at a field of each item (its name read once), or a parameter per item. */
interface Reader {
	/** As errors name it. */
	name: string;
	/** When read at a field. */
	field?: string;
	read: (itemIndex: number) => { found: boolean; value?: unknown };
}

function readerOf(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	{ from, field, value }: PerItemValue,
): Reader {
	const node = context.getNode();
	const atParameter = ({ name, displayName }: INodeProperties): Reader => ({
		name: displayName,
		read: (itemIndex) => ({ found: true, value: context.getNodeParameter(name, itemIndex, '') }),
	});
	const from2_1 = fromVersion2_1(node);
	if (!fromVersion2(node)) return atParameter(value);
	// 2.1: a tool's value comes from the model; on the canvas, an expression gives each item's value.
	if (from2_1 && isToolCopy(node)) return atParameter(value);
	if (from2_1 && usesExpression(context, [field.name])) return atParameter(field);
	if (!from2_1 && context.getNodeParameter(from.name, 0, from.default) !== from.default)
		return atParameter(value);
	const path = fieldNameOf(context, field);
	return {
		name: `${field.displayName} "${path}"`,
		field: path,
		read: (itemIndex) => (path ? valueAtPath(items[itemIndex].json, path) : { found: false }),
	};
}

/** A field name parameter, read once per run; one not required may be empty. */
function fieldNameOf(
	context: IExecuteFunctions,
	{ name, displayName, default: fallback, required }: INodeProperties,
): string {
	const value = context.getNodeParameter(name, 0, fallback);
	if (typeof value === 'string' && (value.trim() !== '' || !required)) return value.trim();
	const expected = `type the name of a field of the input items, e.g. ${String(fallback || 'id')}`;
	throw refused(
		{ context, itemIndex: 0 },
		displayName,
		value,
		'is not the name of a field',
		expected,
	);
}

/** Unlock's, Add and Remove Contacts' Contact IDs, or (`CONTACT_ID`) a refund claim's from 2.2. */
export function contactIdsReader(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	parameters: PerItemValue = CONTACT_IDS,
): (itemIndex: number) => string[] {
	const { name, field = '', read } = readerOf(context, items, parameters);
	const advice = `Set Contact ID Field to the field that holds the contact ID, or ${
		fromVersion2_1(context.getNode())
			? 'use an expression in it that gives the IDs'
			: 'choose Contact IDs From → An Expression'
	}.`;
	return (itemIndex) => {
		const where = { context, itemIndex };
		const { found, value } = read(itemIndex);
		if (found) return contactIdsOf(where, name, value);
		const keys = Object.keys(items[itemIndex].json);
		const has = keys.length
			? `The item has the fields ${keys.slice(0, 12).join(', ')}${keys.length > 12 ? ', …' : ''}.`
			: 'The item is empty.';
		const problem = 'is not a field of the input item';
		const expected = `type the field that holds the ID, e.g. ${fieldLike(keys, /id$/i, 'id')}`;
		throw refused(where, 'Contact ID Field', field, problem, expected, `${has} ${advice}`);
	};
}

/** An example field name for an error: the item's own that looks right, else `fallback`. */
function fieldLike(keys: string[], looksRight: RegExp, fallback: string): string {
	return keys.find((key) => looksRight.test(key)) ?? fallback;
}

export interface Person {
	email: string;
	linkedinUrl: string;
	/** The parameter each value came from, as errors about it name it. */
	names: { email: string; linkedin_url: string };
}

export function personReader(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): (itemIndex: number) => Person {
	const email = readerOf(context, items, EMAIL);
	const linkedinUrl = readerOf(context, items, LINKEDIN_URL);
	const names = { email: email.name, linkedin_url: linkedinUrl.name };
	// Read at fields, an item with neither is named here; from parameters the request's check names it.
	const atFields = email.field !== undefined && linkedinUrl.field !== undefined;
	const orExpressions = fromVersion2_1(context.getNode())
		? 'use an expression in one of them that gives the value'
		: 'choose Person From → Expressions';
	return (itemIndex) => {
		const where = { context, itemIndex };
		const person = {
			email: textOf(where, email.name, email.read(itemIndex).value),
			linkedinUrl: textOf(where, linkedinUrl.name, linkedinUrl.read(itemIndex).value),
		};
		if (!atFields || person.email || person.linkedinUrl) return { ...person, names };
		const found = [email, linkedinUrl]
			.filter(({ field }) => field)
			.map(({ field, read }) => `"${field}": ${showValue(read(itemIndex).value)}`);
		const keys = Object.keys(items[itemIndex].json);
		const example = fieldLike(keys, /mail|linkedin/i, 'work_email');
		throw new OperationError(
			context,
			`${names.email} and ${names.linkedin_url}: the item has a value at neither; type the field that holds one, e.g. ${example}`,
			{
				itemIndex,
				description: `Enrich needs an email or a LinkedIn URL; the item has ${found.join(', ')}, and the fields ${keys.slice(0, 12).join(', ') || '(none)'}. Set Email Field or LinkedIn URL Field to the item's field, or ${orExpressions}. Nothing was sent.`,
			},
		);
	};
}

/**
 * Reads and checks every item before any is sent, then sends item by item: a refusal stops the run
 * before anything is sent (what its error says), and under continueOnFail the refused item is an
 * error item among the others' answers. For operations that send one call an item.
 */
export async function readEveryItemFirst<T>(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	read: (itemIndex: number) => T,
	send: (
		value: T,
		itemIndex: number,
	) => Promise<IDataObject | IDataObject[] | INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const values = new Map<number, T>();
	const { refused } = await checkEveryItem(context, items, (itemIndex) => {
		values.set(itemIndex, read(itemIndex));
	});
	return await forEachItem(context, items, async (itemIndex) => {
		const failure = refused.get(itemIndex);
		if (failure) throw failure;
		return await send(values.get(itemIndex) as T, itemIndex);
	});
}
