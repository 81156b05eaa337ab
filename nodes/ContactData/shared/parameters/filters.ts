/**
 * Search filters as node parameters (Contact → Search, Saved List → Create from filters) and their
 * conversion to the contract's `filters` object: values as people write them ("Customer Success")
 * become the service's identifiers (customer_success), and every value is checked before sending.
 */
import {
	jsonParse,
	type IDataObject,
	type IDisplayOptions,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import {
	FUNDING_STAGES,
	KNOWN_DEPARTMENTS,
	KNOWN_INDUSTRIES,
	KNOWN_TECH_STACK,
	SENIORITIES,
	searchFiltersSchema,
	type SearchFilters,
} from '../client/contract';
import { checkBody, refused, showValue, stringListOf, textOf, wholeNumber, type Where } from './values';

const SPECIAL_LABELS: Record<string, string> = {
	vp: 'VP',
	c_suite: 'C-Suite',
	ipo: 'IPO',
	aws: 'AWS',
	gcp: 'GCP',
	e_commerce: 'E-Commerce',
	'node.js': 'Node.js',
	postgresql: 'PostgreSQL',
	mysql: 'MySQL',
	mongodb: 'MongoDB',
	hubspot: 'HubSpot',
	information_technology: 'Information Technology (IT)',
	human_resources: 'Human Resources (People)',
};

const label = (value: string) =>
	SPECIAL_LABELS[value] ??
	value
		.split(/[_ ]/)
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');

const choicesOf = (values: readonly string[]) =>
	values.map((value) => ({ name: label(value), value })).sort((a, b) => a.name.localeCompare(b.name));

/** A value compared the way people write it: case, spaces, hyphens and underscores alike. */
const looseKey = (value: string) => value.trim().toLowerCase().replace(/[\s_-]+/g, '_');

/**
 * A value in the service's words: the known identifier it is written like ("Real Estate" ->
 * real_estate, "Ruby-on-Rails" -> ruby on rails), otherwise its snake_case form, which the service uses.
 */
function inServiceWords(value: string, known: readonly string[]): string {
	const key = looseKey(value);
	return known.find((entry) => looseKey(entry) === key) ?? key;
}

const listHint = 'Several values: separate them with commas, or give an array from an expression';
const pickHint =
	'Choose from the list, or give other values (names as people write them are turned into the service’s snake_case identifiers) from an expression';

interface ListFilter {
	parameter: string;
	filter: keyof SearchFilters & string;
	displayName: string;
	/** The service's identifiers: values are matched to them as people write them. */
	known?: readonly string[];
	/** Whether only the known values exist (an enum): others are refused before sending. */
	closed?: true;
}

const LIST_FILTERS: ListFilter[] = [
	{ parameter: 'title', filter: 'title', displayName: 'Job Titles' },
	{ parameter: 'seniority', filter: 'seniority', displayName: 'Seniority', known: SENIORITIES, closed: true },
	{ parameter: 'industry', filter: 'industry', displayName: 'Industries', known: KNOWN_INDUSTRIES },
	{ parameter: 'department', filter: 'department', displayName: 'Departments', known: KNOWN_DEPARTMENTS },
	{ parameter: 'techStack', filter: 'tech_stack', displayName: 'Tech Stack', known: KNOWN_TECH_STACK },
	{
		parameter: 'fundingStage',
		filter: 'funding_stage',
		displayName: 'Funding Stage',
		known: FUNDING_STAGES,
		closed: true,
	},
	{ parameter: 'country', filter: 'country', displayName: 'Countries' },
];

const COMPANY_SIZE = 'Company Size (Min/Max Employees)';
/** The upper bound when only a minimum is given; larger sizes are refused. */
const LARGEST_COMPANY = 1_000_000_000;

/** Display names of the parameters behind each filter, for errors. */
export const FILTER_PARAMETER_NAMES: Record<string, string> = {
	filters: 'Filters',
	...Object.fromEntries(LIST_FILTERS.map(({ filter, displayName }) => [`filters.${filter}`, displayName])),
	'filters.company_size': COMPANY_SIZE,
	'filters.keywords': 'Keywords',
};

export function filterProperties(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			displayOptions,
			description: 'Filters combine with AND; within one filter any of the values matches',
			options: [
				{
					displayName: 'Company Size (Max Employees)',
					name: 'companySizeMax',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 1000,
					description: 'Largest company size to include (inclusive)',
				},
				{
					displayName: 'Company Size (Min Employees)',
					name: 'companySizeMin',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 1,
					description: 'Smallest company size to include (inclusive)',
				},
				{
					displayName: 'Countries',
					name: 'country',
					type: 'string',
					default: '',
					placeholder: 'US, GB, DE',
					description: `ISO 3166 two-letter country codes. ${listHint}.`,
				},
				{
					displayName: 'Departments',
					name: 'department',
					type: 'multiOptions',
					default: [],
					options: choicesOf(KNOWN_DEPARTMENTS),
					description: `Departments of the person. ${pickHint}.`,
				},
				{
					displayName: 'Funding Stage',
					name: 'fundingStage',
					type: 'multiOptions',
					default: [],
					options: choicesOf(FUNDING_STAGES),
					description: 'Funding stages of the company',
				},
				{
					displayName: 'Industries',
					name: 'industry',
					type: 'multiOptions',
					default: [],
					options: choicesOf(KNOWN_INDUSTRIES),
					description: `Industries of the company. ${pickHint}.`,
				},
				{
					displayName: 'Job Titles',
					name: 'title',
					type: 'string',
					default: '',
					placeholder: 'VP Engineering, CTO',
					description: `A title matches when it holds every word of one of these as a whole word, any case (CTO finds "Co-Founder & CTO", not "Director"). ${listHint}.`,
				},
				{
					displayName: 'Keywords',
					name: 'keywords',
					type: 'string',
					default: '',
					description:
						'Every word must begin a word of the name, title, company name or city',
				},
				{
					displayName: 'Seniority',
					name: 'seniority',
					type: 'multiOptions',
					default: [],
					options: choicesOf(SENIORITIES),
				},
				{
					displayName: 'Tech Stack',
					name: 'techStack',
					type: 'multiOptions',
					default: [],
					options: choicesOf(KNOWN_TECH_STACK),
					description: `Technologies the company uses. ${pickHint}.`,
				},
			],
		},
		{
			displayName: 'Additional Filters',
			name: 'additionalFilters',
			type: 'fixedCollection',
			placeholder: 'Add Additional Filter',
			typeOptions: { multipleValues: true },
			default: {},
			displayOptions,
			description:
				'Any of the service’s 270+ further filters, by name. A value that is valid JSON (an array, number, true/false) is sent as such; anything else as text.',
			options: [
				{
					displayName: 'Filter',
					name: 'filter',
					values: [
						{
							displayName: 'Name',
							name: 'name',
							type: 'string',
							default: '',
							placeholder: 'revenue_range',
							description: 'The filter’s name in the API',
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							placeholder: '["10m-50m"]',
						},
					],
				},
			],
		},
		{
			displayName: 'Additional Filters (JSON)',
			name: 'filtersJson',
			type: 'json',
			default: '{}',
			displayOptions,
			description:
				'Further filters as a JSON object, merged over the ones above, e.g. {"revenue_range": ["10m-50m"]}',
		},
	];
}

/** The contract's `filters` object from the filter parameters of one item, checked. */
export function readFilters(context: IExecuteFunctions, itemIndex: number): SearchFilters {
	const where: Where = { node: context.getNode(), itemIndex };
	const named = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const filters: IDataObject = {};
	/** The parameter each filter came from, as errors name it. */
	const sources: Record<string, string> = {};
	const put = (filter: string, value: unknown, source: string) => {
		filters[filter] = value as IDataObject[string];
		sources[filter] = source;
	};

	for (const { parameter, filter, displayName } of LIST_FILTERS) {
		if (named[parameter] !== undefined) put(filter, named[parameter], displayName);
	}
	if (named.keywords !== undefined) put('keywords', named.keywords, 'Keywords');
	const companySize = companySizeOf(where, named);
	if (companySize) put('company_size', companySize, COMPANY_SIZE);

	const additional = context.getNodeParameter('additionalFilters.filter', itemIndex, []) as Array<{
		name?: unknown;
		value?: unknown;
	}>;
	for (const { name, value } of additional) {
		const key = textOf(where, 'Additional Filters', name);
		if (key === '') throw refused(where, 'Additional Filters', name, 'is not a filter name: every added filter needs one');
		put(key, typeof value === 'string' ? parseLoose(value) : value, `Additional Filters › ${key}`);
	}

	const json = filtersJsonOf(where, context.getNodeParameter('filtersJson', itemIndex, '{}'));
	for (const [key, value] of Object.entries(json)) put(key, value, `Additional Filters (JSON) › ${key}`);

	inServiceForm(where, filters, sources);
	return checkBody(context, searchFiltersSchema, filters, itemIndex, sources);
}

/** The `<min>-<max>` company size from the two size parameters, when either is set. */
function companySizeOf(where: Where, named: IDataObject): string | undefined {
	if (named.companySizeMin === undefined && named.companySizeMax === undefined) return undefined;
	const bound = (value: unknown, displayName: string, fallback: number) =>
		value === undefined || value === '' ? fallback : wholeNumber(where, displayName, value, { min: 0, max: LARGEST_COMPANY });
	const min = bound(named.companySizeMin, 'Company Size (Min Employees)', 0);
	const max = bound(named.companySizeMax, 'Company Size (Max Employees)', LARGEST_COMPANY);
	if (min > max) {
		throw refused(where, COMPANY_SIZE, `${min}-${max}`, 'has a minimum greater than its maximum');
	}
	return `${min}-${max}`;
}

/**
 * List filters as lists of text in the service's identifiers, keywords as text; whatever their
 * source. Values that are not text (objects, booleans) are refused, not sent as "[object Object]".
 */
function inServiceForm(where: Where, filters: IDataObject, sources: Record<string, string>): void {
	for (const { filter, known, closed } of LIST_FILTERS) {
		if (filters[filter] === undefined) continue;
		const values = stringListOf(where, sources[filter], filters[filter]);
		filters[filter] = known ? values.map((value) => knownValue(where, sources[filter], value, known, closed)) : values;
		if (values.length === 0) delete filters[filter];
	}
	if (filters.keywords !== undefined) {
		const keywords = textOf(where, sources.keywords, filters.keywords);
		if (keywords === '') delete filters.keywords;
		else filters.keywords = keywords;
	}
}

function knownValue(where: Where, parameter: string, value: string, known: readonly string[], closed?: true): string {
	const identifier = inServiceWords(value, known);
	if (closed && !known.includes(identifier)) {
		throw refused(where, parameter, value, `is not one of: ${known.join(', ')}`);
	}
	return identifier;
}

function parseLoose(value: string): unknown {
	const trimmed = value.trim();
	try {
		return JSON.parse(trimmed) as unknown;
	} catch {
		return trimmed;
	}
}

function filtersJsonOf(where: Where, raw: unknown): IDataObject {
	const parameter = 'Additional Filters (JSON)';
	let json = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return {};
		try {
			json = jsonParse(raw);
		} catch {
			throw refused(where, parameter, raw, 'is not valid JSON', 'Give a JSON object, e.g. {"revenue_range": ["10m-50m"]}.');
		}
	}
	if (!json || typeof json !== 'object' || Array.isArray(json)) {
		throw refused(where, parameter, json, 'is not a JSON object', 'Give a JSON object, e.g. {"revenue_range": ["10m-50m"]}.');
	}
	return json as IDataObject;
}

/** Filters whose values are text the service matches exactly or word by word. */
const TEXT_FILTERS = ['title', 'department', 'industry', 'tech_stack', 'keywords'] as const;

/**
 * When a search finds nothing: which text filters may be at fault and how their values are written,
 * or undefined when the filters hold no text filter.
 */
export function textFilterAdvice(filters: SearchFilters): string | undefined {
	const advice: string[] = [];
	for (const filter of TEXT_FILTERS) {
		const value = filters[filter];
		if (value === undefined) continue;
		const source = LIST_FILTERS.find((entry) => entry.filter === filter);
		if (filter === 'keywords') {
			advice.push(`Keywords ${showValue(value)}: every word must begin a word of the name, title, company name or city`);
		} else if (filter === 'title') {
			advice.push(`Job Titles ${showValue(value)} match whole words ("CTO" finds "CTO & Co-Founder", not "Director")`);
		} else if (source?.known) {
			const known = source.known;
			const unknown = (value as string[]).filter((entry) => !known.includes(entry));
			advice.push(
				unknown.length
					? `${source.displayName} ${showValue(unknown)} ${unknown.length === 1 ? 'is not a value' : 'are not values'} the service lists; it writes them in snake_case, e.g. ${known.slice(0, 6).join(', ')} (pick them from the list in the editor)`
					: `${source.displayName} ${showValue(value)} are matched exactly`,
			);
		}
	}
	return advice.length ? advice.join('; ') : undefined;
}

/** The notice for searches (or lists from filters) that found nothing, from each item's advice. */
export function noMatchNotice(lead: string, advice: string[]): string {
	return `${lead} Text filters match the service’s values exactly or word by word, so one of these may be at fault: ${advice.join(' | ')}.`;
}
