/** The contract's `filters` from an item's filter parameters, in the service's identifiers. */
import { jsonParse, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { searchFiltersSchema, type SearchFilters } from '../client/contract';
import { COMPANY_SIZE, LIST_FILTERS, type ListFilter } from './filters';
import { OTHER_FILTERS_LABEL } from './filterParameters';
import {
	checkBody,
	commaSeparated,
	refused,
	stringListOf,
	textOf,
	wholeNumber,
	type Where,
} from './values';
import { fromVersion2_2 } from './versions';

/** The upper bound when only a minimum is given; larger sizes are refused. */
const LARGEST_COMPANY = 1_000_000_000;

/** A value compared the way people write it: case, spaces, hyphens and underscores alike. */
const looseKey = (value: string) =>
	value
		.trim()
		.toLowerCase()
		.replace(/[\s_-]+/g, '_');

/** A filter, its value, and the parameter it came from, as errors name it. */
type Entry = [filter: string, value: unknown, source: string];

export function readFilters(context: IExecuteFunctions, itemIndex: number): SearchFilters {
	const where: Where = { context, itemIndex };
	const named = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	// A later entry for the same filter wins.
	const entries: Entry[] = [
		...LIST_FILTERS.map(
			({ parameter, filter, displayName }): Entry => [filter, named[parameter], displayName],
		),
		['keywords', named.keywords, 'Keywords'],
		['company_size', companySizeOf(where, named), COMPANY_SIZE],
		...furtherFilters(context, itemIndex, named),
		...filtersJsonOf(where, context.getNodeParameter('filtersJson', itemIndex, '{}')),
	];
	const given = entries.filter(([, value]) => value !== undefined);
	const filters = Object.fromEntries(given.map(([key, value]) => [key, value])) as IDataObject;
	const sources = Object.fromEntries(given.map(([key, , source]) => [key, source]));
	inServiceForm(where, filters, sources);
	return checkBody(context, searchFiltersSchema, filters, itemIndex, sources);
}

type ByName = Array<{ name?: unknown; value?: unknown }>;

/** The API's further filters by name: 2.2's inside Filters, Additional Filters' before it. */
function furtherFilters(
	context: IExecuteFunctions,
	itemIndex: number,
	named: IDataObject,
): Entry[] {
	const where: Where = { context, itemIndex };
	if (fromVersion2_2(context.getNode())) {
		const other = (named.otherFilters as { filter?: ByName } | undefined)?.filter ?? [];
		// A named filter's text is read as its own parameter reads it: "25" stays what was typed.
		const read = (value: unknown, key: string) =>
			NAMED_FILTERS.has(key) ? asText(value) : asTyped(value);
		return byName(where, OTHER_FILTERS_LABEL, other, read);
	}
	const additional = context.getNodeParameter('additionalFilters.filter', itemIndex, []);
	return byName(where, 'Additional Filters', additional as ByName, jsonOrText);
}

function byName(
	where: Where,
	label: string,
	given: ByName,
	read: (value: unknown, key: string) => unknown,
) {
	return given.map(({ name, value }): Entry => {
		const key = filterNameOf(where, label, name);
		return [key, read(value, key), `${label} › ${key}`];
	});
}

/** The filters the node names: their values are read by their own rules (inServiceForm, the contract). */
const NAMED_FILTERS = new Set<string>([
	...LIST_FILTERS.map(({ filter }) => filter),
	'keywords',
	'company_size',
]);

/** Names every JavaScript object has: n8n's engines drop some of them from a body on the way. */
const OBJECT_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);

/** A further filter's name, refused where it would not reach the API as typed. */
function filterNameOf(where: Where, label: string, name: unknown): string {
	const key = textOf(where, label, name);
	const expected = "type the filter's API name, e.g. revenue_range";
	if (key === '') {
		const more = 'Every added filter needs the name the Contact Data API reference gives it.';
		throw refused(where, label, name, 'is not a filter name', expected, more);
	}
	if (OBJECT_NAMES.has(key)) {
		const problem = 'is not a filter name n8n can send';
		const why =
			'Every JavaScript object has a property of this name, and n8n drops some of them on the way; no API filter is named so.';
		throw refused(where, label, key, problem, expected, why);
	}
	return key;
}

/** Before 2.2: a text value that reads as JSON is taken as JSON. */
function jsonOrText(value: unknown): unknown {
	const text = typeof value === 'string' ? value.trim() : undefined;
	return text === undefined ? value : jsonParse(text, { fallbackValue: text });
}

/** Text trimmed (empty: no filter); an expression's list, number or true/false as it is. */
function asText(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	return value.trim() === '' ? undefined : value.trim();
}

/** A number as people write one: no leading zero (a code such as 02134 stays text), no exponent. */
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/**
 * From 2.2, as the named filters read theirs: text with commas a list, true/false and numbers as
 * typed, other text as text; empty is no filter. An expression's list, number or true/false is kept.
 */
function asTyped(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (text.includes(',')) return commaSeparated(text);
	if (text === '') return undefined;
	if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
	return NUMBER.test(text) ? numberOrDigits(text) : text;
}

/**
 * A number when JavaScript holds the value typed, else the digits as typed: 12345678901234567890
 * would be sent as 12345678901234567000.
 */
function numberOrDigits(text: string): number | string {
	const number = Number(text);
	return decimalOf(String(number)) === decimalOf(text) ? number : text;
}

/** A decimal's value as "<sign><digits>e<exponent>", the digits without zeros at either end. */
function decimalOf(text: string): string {
	const [, sign, whole, fraction = '', exponent = '0'] =
		/^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text) ?? [];
	const digits = `${whole}${fraction}`.replace(/^0+/, '');
	const trimmed = digits.replace(/0+$/, '');
	if (trimmed === '') return '0';
	const power = Number(exponent) - fraction.length + (digits.length - trimmed.length);
	return `${sign}${trimmed}e${power}`;
}

/** `<min>-<max>` when either size is set. */
function companySizeOf(where: Where, named: IDataObject): string | undefined {
	if (named.companySizeMin === undefined && named.companySizeMax === undefined) return undefined;
	const bound = (value: unknown, displayName: string, fallback: number) =>
		value === undefined || value === ''
			? fallback
			: wholeNumber(where, displayName, value, { min: 0, max: LARGEST_COMPANY });
	const min = bound(named.companySizeMin, 'Company Size (Min Employees)', 0);
	const max = bound(named.companySizeMax, 'Company Size (Max Employees)', LARGEST_COMPANY);
	if (min > max) {
		const problem = 'has a minimum greater than its maximum';
		const expected = `type Min below Max, e.g. ${max} and ${min}`;
		throw refused(where, COMPANY_SIZE, `${min}-${max}`, problem, expected);
	}
	return `${min}-${max}`;
}

/** List filters as lists of the service's identifiers, keywords as text, whatever their source. */
function inServiceForm(where: Where, filters: IDataObject, sources: Record<string, string>): void {
	for (const listFilter of LIST_FILTERS) {
		const { filter } = listFilter;
		if (filters[filter] === undefined) continue;
		const values = stringListOf(where, sources[filter], filters[filter]);
		filters[filter] = listFilter.known
			? values.map((value) => inServiceWords(where, sources[filter], value, listFilter))
			: values;
		if (values.length === 0) delete filters[filter];
	}
	if (filters.keywords !== undefined) {
		const keywords = textOf(where, sources.keywords, filters.keywords);
		if (keywords === '') delete filters.keywords;
		else filters.keywords = keywords;
	}
}

/**
 * The known identifier a value is written like ("Real Estate" -> real_estate, "Ruby-on-Rails" ->
 * ruby on rails), else its snake_case form, which the service uses; a closed filter refuses others.
 */
function inServiceWords(
	where: Where,
	parameter: string,
	value: string,
	{ known = [], closed }: ListFilter,
): string {
	const key = looseKey(value);
	const identifier = known.find((entry) => looseKey(entry) === key) ?? key;
	if (closed && !known.includes(identifier)) {
		const expected = `type one of the API's values, e.g. ${known[0]}`;
		throw refused(
			where,
			parameter,
			value,
			'is not a value the API has',
			expected,
			`The values: ${known.join(', ')}.`,
		);
	}
	return identifier;
}

/** Version 1's Additional Filters (JSON). */
function filtersJsonOf(where: Where, raw: unknown): Entry[] {
	if (typeof raw === 'string' && raw.trim() === '') return [];
	let json = raw;
	let problem = 'is not a JSON object';
	try {
		if (typeof raw === 'string') json = jsonParse(raw);
	} catch {
		problem = 'is not valid JSON';
	}
	if (json && typeof json === 'object' && !Array.isArray(json))
		return Object.entries(json).map(([key, value]) => [
			filterNameOf(where, 'Additional Filters (JSON)', key),
			value,
			`Additional Filters (JSON) › ${key}`,
		]);
	const expected = 'type a JSON object, e.g. {"revenue_range": ["10m-50m"]}';
	throw refused(where, 'Additional Filters (JSON)', json, problem, expected);
}
