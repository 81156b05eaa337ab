/**
 * Parameter values as typed in or as expressions give them, checked before anything is sent (bad
 * input costs nothing); an error names the parameter as the editor shows it and the value refused.
 */
import type { z, ZodIssue, ZodTypeAny } from 'zod';

import { contactIdSchema, ID_PREFIXES, isContactId, LIMITS } from '../client/contract';
import { OperationError, type RaisingContext } from '../client/failures';
import { plural } from './utilities';

export interface Where {
	context: RaisingContext;
	itemIndex: number;
}

export interface Choice {
	name: string;
	value: string;
}

const SHOWN_LENGTH = 80;

/** Text in quotes, anything else as JSON, long values cut. */
export function showValue(value: unknown): string {
	if (value === undefined || (typeof value === 'string' && value.trim() === '')) return '(empty)';
	let shown: string;
	try {
		// A number JSON cannot write (Infinity, NaN) is shown as itself, not as null.
		shown =
			typeof value === 'string'
				? `"${value}"`
				: typeof value === 'number' && !Number.isFinite(value)
					? String(value)
					: (JSON.stringify(value) ?? String(value));
	} catch {
		shown = String(value);
	}
	return shown.length > SHOWN_LENGTH ? `${shown.slice(0, SHOWN_LENGTH - 1)}…` : shown;
}

/** "<Parameter>: <value> <problem>". */
export function refused(
	{ context, itemIndex }: Where,
	parameter: string,
	value: unknown,
	problem: string,
	hint?: string,
): OperationError {
	// "is not…", "must be…" read on from the value; another sentence follows it.
	const joiner = /^(is|are|has|must)\b/.test(problem) ? ' ' : '; ';
	return new OperationError(context, `${parameter}: ${showValue(value)}${joiner}${problem}`, {
		itemIndex,
		description: [hint, 'Nothing was sent.'].filter(Boolean).join(' '),
	});
}

/** A whole number within bounds; numbers given as text ("50") are taken. */
export function wholeNumber(
	where: Where,
	parameter: string,
	value: unknown,
	{ min, max }: { min: number; max?: number },
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	const top = Math.min(max ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
	if (typeof number === 'number' && Number.isInteger(number) && number >= min && number <= top)
		return number;
	const largest = top.toLocaleString('en-US');
	const problem =
		typeof number === 'number' && Number.isFinite(number) && number > top
			? `is more than ${largest}`
			: `is not a whole number ${max === undefined ? `of ${min} or more` : `from ${min} to ${largest}`}`;
	throw refused(where, parameter, value, problem);
}

/** Text, trimmed; a number is taken as its digits. */
export function textOf(where: Where, parameter: string, value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw refused(where, parameter, value, 'is not text');
}

/** From an array, comma-separated text or one value; refuses objects (no "[object Object]"). */
export function stringListOf(where: Where, parameter: string, value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap((entry) => stringListOf(where, parameter, entry));
	return commaSeparated(textOf(where, parameter, value));
}

export const commaSeparated = (text: string) =>
	text
		.split(',')
		.map((part) => part.trim())
		.filter((part) => part !== '');

/** One id, an array of ids (or of contacts with an `id`), or comma-separated ids; at least one. */
export function contactIdsOf(where: Where, parameter: string, value: unknown): string[] {
	const ids = toContactIds(value);
	if (ids.length === 0) {
		throw refused(
			where,
			parameter,
			'',
			'has no contact id',
			`Give a contact id (${ID_PREFIXES.contact}…), an array of ids, or ids separated by commas.`,
		);
	}
	for (const id of ids) {
		if (isContactId(id)) continue;
		// The schema's first issue picks the words.
		if (contactIdSchema.safeParse(id).error?.issues[0].code === 'too_big')
			throw refused(where, parameter, id, tooLongForAnId);
		throw refused(
			where,
			parameter,
			id,
			`is not a contact id (${ID_PREFIXES.contact}…)`,
			'Contact ids come from Contact → Search results (the id field).',
		);
	}
	return ids as string[];
}

/** Entries that are not text are kept as they are, for `contactIdsOf` to refuse. */
function toContactIds(value: unknown): unknown[] {
	if (value === undefined || value === null) return [];
	if (Array.isArray(value)) return value.flatMap((entry) => toContactIds(entry));
	if (typeof value === 'object' && 'id' in value)
		return toContactIds((value as { id: unknown }).id);
	if (typeof value === 'number') return [String(value)];
	return typeof value === 'string' ? commaSeparated(value) : [value];
}

export const tooLongForAnId = `is longer than ${LIMITS.idMaxLength} characters, longer than any id the service gives`;

/** A zod issue becomes an error naming the parameter behind the body path (`parameterNames`). */
export function checkBody<Schema extends ZodTypeAny>(
	context: RaisingContext,
	schema: Schema,
	body: unknown,
	itemIndex: number,
	parameterNames: Record<string, string>,
): z.output<Schema> {
	const result = schema.safeParse(body);
	if (result.success) return result.data as z.output<Schema>;
	const issue = result.error.issues[0];
	throw refused(
		{ context, itemIndex },
		parameterFor(issue, parameterNames),
		valueAt(body, issue.path),
		problemOf(issue),
	);
}

function parameterFor(issue: ZodIssue, parameterNames: Record<string, string>): string {
	// The longest path prefix that names a parameter ("filters.seniority.0" -> "filters.seniority").
	for (let length = issue.path.length; length > 0; length--) {
		const name = parameterNames[issue.path.slice(0, length).join('.')];
		if (name) return name;
	}
	return issue.path.length
		? `Field ${issue.path.filter((part) => typeof part === 'string').join('.')}`
		: 'Request';
}

function valueAt(body: unknown, path: Array<string | number>): unknown {
	let value = body;
	for (const part of path) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string | number, unknown>)[part];
	}
	return value;
}

const TYPE_WORDS: Record<string, string> = {
	string: 'text',
	number: 'a number',
	integer: 'a whole number',
	boolean: 'true or false',
	array: 'a list',
	object: 'an object',
};

function outOfBound(type: string, bound: number | bigint, above: boolean): string {
	if (type === 'string')
		return `is ${above ? 'longer' : 'shorter'} than ${plural(Number(bound), 'character')}`;
	if (type === 'array')
		return `has ${above ? 'more' : 'fewer'} than ${plural(Number(bound), 'entry', 'entries')}`;
	return `is ${above ? 'more' : 'less'} than ${String(bound)}`;
}

/** A zod issue in plain words (never zod's own JSON or type jargon). */
function problemOf(issue: ZodIssue): string {
	switch (issue.code) {
		case 'invalid_type':
			return `is not ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
		case 'invalid_enum_value':
			return `is not one of: ${issue.options.join(', ')}`;
		case 'too_small':
			return outOfBound(issue.type, issue.minimum, false);
		case 'too_big':
			return outOfBound(issue.type, issue.maximum, true);
		default:
			// The contract's own messages ("must be an ISO 3166 alpha-2 code").
			return issue.message;
	}
}
