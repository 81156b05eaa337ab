/** The contract's `filters` from an item's filter parameters, in the service's identifiers. */
import { jsonParse, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { searchFiltersSchema, type SearchFilters } from '../client/contract';
import { COMPANY_SIZE, LIST_FILTERS, type ListFilter } from './filters';
import { checkBody, refused, stringListOf, textOf, wholeNumber, type Where } from './values';

/** The upper bound when only a minimum is given; larger sizes are refused. */
const LARGEST_COMPANY = 1_000_000_000;

/** A value compared the way people write it: case, spaces, hyphens and underscores alike. */
const looseKey = (value: string) =>
	value
		.trim()
		.toLowerCase()
		.replace(/[\s_-]+/g, '_');

export function readFilters(context: IExecuteFunctions, itemIndex: number): SearchFilters {
	const where: Where = { context, itemIndex };
	const named = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const filters: IDataObject = {};
	// The parameter each filter came from, as errors name it.
	const sources: Record<string, string> = {};
	const put: Put = (filter, value, source) => {
		filters[filter] = value as IDataObject[string];
		sources[filter] = source;
	};

	for (const { parameter, filter, displayName } of LIST_FILTERS) {
		if (named[parameter] !== undefined) put(filter, named[parameter], displayName);
	}
	if (named.keywords !== undefined) put('keywords', named.keywords, 'Keywords');
	const companySize = companySizeOf(where, named);
	if (companySize) put('company_size', companySize, COMPANY_SIZE);

	const additional = context.getNodeParameter('additionalFilters.filter', itemIndex, []);
	putAdditionalFilters(where, additional as Array<{ name?: unknown; value?: unknown }>, put);
	const json = filtersJsonOf(where, context.getNodeParameter('filtersJson', itemIndex, '{}'));
	for (const [key, value] of Object.entries(json))
		put(key, value, `Additional Filters (JSON) › ${key}`);

	inServiceForm(where, filters, sources);
	return checkBody(context, searchFiltersSchema, filters, itemIndex, sources);
}

type Put = (filter: string, value: unknown, source: string) => void;

/** A text value that reads as JSON is taken as JSON. */
function putAdditionalFilters(
	where: Where,
	additional: Array<{ name?: unknown; value?: unknown }>,
	put: Put,
): void {
	for (const { name, value } of additional) {
		const key = textOf(where, 'Additional Filters', name);
		const problem = 'is not a filter name: every added filter needs one';
		if (key === '') throw refused(where, 'Additional Filters', name, problem);
		const text = typeof value === 'string' ? value.trim() : undefined;
		const parsed = text === undefined ? value : jsonParse(text, { fallbackValue: text });
		put(key, parsed, `Additional Filters › ${key}`);
	}
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
		throw refused(where, COMPANY_SIZE, `${min}-${max}`, 'has a minimum greater than its maximum');
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
		throw refused(where, parameter, value, `is not one of: ${known.join(', ')}`);
	}
	return identifier;
}

/** Version 1's Additional Filters (JSON). */
function filtersJsonOf(where: Where, raw: unknown): IDataObject {
	if (typeof raw === 'string' && raw.trim() === '') return {};
	let json = raw;
	let problem = 'is not a JSON object';
	try {
		if (typeof raw === 'string') json = jsonParse(raw);
	} catch {
		problem = 'is not valid JSON';
	}
	if (json && typeof json === 'object' && !Array.isArray(json)) return json as IDataObject;
	throw refused(
		where,
		'Additional Filters (JSON)',
		json,
		problem,
		'Give a JSON object, e.g. {"revenue_range": ["10m-50m"]}.',
	);
}
