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

/**
 * "<Parameter>: <value> <problem>; <what to type, with an example>", `more` below it. Said before
 * anything is sent: operations read every item before they send (readEveryItemFirst).
 */
export function refused(
	{ context, itemIndex }: Where,
	parameter: string,
	value: unknown,
	problem: string,
	expected: string,
	more?: string,
): OperationError {
	// "is not…", "must be…" read on from the value; another sentence follows it.
	const joiner = /^(is|are|has|must)\b/.test(problem) ? ' ' : '; ';
	const message = `${parameter}: ${showValue(value)}${joiner}${problem}; ${expected}`;
	return new OperationError(context, message, {
		itemIndex,
		description: [more, 'Nothing was sent.'].filter(Boolean).join(' '),
	});
}

/** An example of a contact ID, as the service writes them. */
export const CONTACT_ID_EXAMPLE = `${ID_PREFIXES.contact}7k2m9x4q1p`;

/** What to type for a value an expression may give, when text is wanted. */
const TYPE_TEXT = 'type text, or use an expression that gives text, e.g. {{ $json.name }}';

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
	const range = max === undefined ? `of ${min} or more` : `from ${min} to ${largest}`;
	const problem =
		typeof number !== 'number' || !Number.isInteger(number)
			? 'is not a whole number'
			: number < min
				? `is less than ${min}`
				: `is more than ${largest}`;
	const example = Math.min(Math.max(100, min), top);
	throw refused(where, parameter, value, problem, `type a whole number ${range}, e.g. ${example}`);
}

/** Text, trimmed; a number is taken as its digits. */
export function textOf(where: Where, parameter: string, value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw refused(where, parameter, value, 'is not text', TYPE_TEXT);
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
	const expected = `type a contact ID, e.g. ${CONTACT_ID_EXAMPLE}`;
	const whereFrom = 'Contact IDs come from Contact → Search results (the id field).';
	if (ids.length === 0) {
		const several = 'Several: an array of IDs, or IDs separated by commas.';
		throw refused(where, parameter, '', 'has no contact id', expected, `${several} ${whereFrom}`);
	}
	for (const id of ids) {
		if (isContactId(id)) continue;
		// The schema's first issue picks the words.
		if (contactIdSchema.safeParse(id).error?.issues[0].code === 'too_big')
			throw refused(where, parameter, id, tooLongForAnId, expected, whereFrom);
		const problem = `is not a contact id (${ID_PREFIXES.contact}…)`;
		throw refused(where, parameter, id, problem, expected, whereFrom);
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

export const tooLongForAnId = `is longer than ${LIMITS.idMaxLength} characters, more than any id`;

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
	const { problem, expected, more } = wordsOf(issue);
	throw refused(
		{ context, itemIndex },
		parameterFor(issue, parameterNames),
		valueAt(body, issue.path),
		problem,
		expected,
		more,
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

const TYPE_WORDS: Record<string, { words: string; expected: string }> = {
	string: { words: 'text', expected: TYPE_TEXT },
	number: { words: 'a number', expected: 'type a number, e.g. 10' },
	integer: { words: 'a whole number', expected: 'type a whole number, e.g. 10' },
	boolean: { words: 'true or false', expected: 'type true or false, e.g. true' },
	array: { words: 'a list', expected: 'type values separated by commas, e.g. a, b' },
	object: {
		words: 'an object',
		expected: 'type an expression that gives one, e.g. {{ { a: 1 } }}',
	},
};

/**
 * What to type for an API field whose rule the contract words (a pattern, a range), by the last
 * name in the issue's path. The contract's words say what is wrong; these, what to type.
 */
const FIELD_WORDS: Record<string, { problem?: string; expected: string }> = {
	company_size: { problem: 'is not a range', expected: 'type min-max, e.g. 50-500' },
	country: { expected: 'type two-letter country codes, e.g. US, GB' },
	email: { expected: 'type an email address, e.g. nathan@example.com' },
	linkedin_url: {
		expected: 'type a LinkedIn profile URL, e.g. https://www.linkedin.com/in/ada-lovelace',
	},
	contact_id: { expected: `type a contact ID, e.g. ${CONTACT_ID_EXAMPLE}` },
	ids: { expected: `type contact IDs, each once, e.g. ${CONTACT_ID_EXAMPLE}` },
};

function outOfBound(type: string, bound: number | bigint, above: boolean) {
	const count = Number(bound);
	const [unit, units] = type === 'array' ? ['entry', 'entries'] : ['character', 'characters'];
	if (type === 'string' || type === 'array') {
		const size = plural(count, unit, units);
		return {
			problem:
				type === 'string'
					? `is ${above ? 'longer' : 'shorter'} than ${size}`
					: `has ${above ? 'more' : 'fewer'} than ${size}`,
			expected: `type at ${above ? 'most' : 'least'} ${size}`,
		};
	}
	return {
		problem: `is ${above ? 'more' : 'less'} than ${String(bound)}`,
		expected: `type a number ${above ? 'up to' : 'from'} ${String(bound)}, e.g. ${String(bound)}`,
	};
}

/** A zod issue in plain words (never zod's own JSON or type jargon), with what to type instead. */
function wordsOf(issue: ZodIssue): { problem: string; expected: string; more?: string } {
	switch (issue.code) {
		case 'invalid_type': {
			const words = TYPE_WORDS[issue.expected];
			return {
				problem: `is not ${words?.words ?? issue.expected}`,
				expected: words?.expected ?? TYPE_TEXT,
			};
		}
		case 'invalid_enum_value':
			return {
				problem: 'is not one of the values the API has',
				expected: `type one of them, e.g. ${String(issue.options[0])}`,
				more: `The values: ${issue.options.join(', ')}.`,
			};
		case 'too_small':
			return outOfBound(issue.type, issue.minimum, false);
		case 'too_big':
			return outOfBound(issue.type, issue.maximum, true);
		default: {
			// The contract's own messages ("must be an ISO 3166 alpha-2 code"); a name not listed is
			// a further filter's, whose one rule is its length.
			const field = [...issue.path].reverse().find((part) => typeof part === 'string');
			const words = field === undefined ? undefined : FIELD_WORDS[field];
			const shorter = `type a shorter value, at most ${plural(LIMITS.filterValueMaxLength, 'character')} as JSON`;
			return { problem: words?.problem ?? issue.message, expected: words?.expected ?? shorter };
		}
	}
}
