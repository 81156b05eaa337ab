/**
 * Search filters as node parameters (Contact → Search, Saved List → Create from filters) and their
 * conversion to the contract's `filters` object.
 */
import {
	NodeOperationError,
	jsonParse,
	type IDataObject,
	type IDisplayOptions,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { FUNDING_STAGES, SENIORITIES, searchFiltersSchema, type SearchFilters } from './contract';
import { checkBody, toStringList } from './values';

const label = (value: string) =>
	value
		.split('_')
		.map((word) => (word === 'vp' ? 'VP' : word.charAt(0).toUpperCase() + word.slice(1)))
		.join(' ')
		.replace('C Suite', 'C-Suite')
		.replace('Ipo', 'IPO');

const listHint = 'Several values: separate them with commas, or give an array from an expression';

/** Display names of the parameters behind each filter, for errors. */
export const FILTER_PARAMETER_NAMES: Record<string, string> = {
	filters: 'Filters',
	'filters.title': 'Job Titles',
	'filters.seniority': 'Seniority',
	'filters.industry': 'Industries',
	'filters.department': 'Departments',
	'filters.tech_stack': 'Tech Stack',
	'filters.company_size': 'Company Size (Min/Max Employees)',
	'filters.funding_stage': 'Funding Stage',
	'filters.country': 'Countries',
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
					type: 'string',
					default: '',
					placeholder: 'engineering, sales',
					description: `Exact department names, any case. ${listHint}.`,
				},
				{
					displayName: 'Funding Stage',
					name: 'fundingStage',
					type: 'multiOptions',
					default: [],
					options: FUNDING_STAGES.map((value) => ({ name: label(value), value })),
					description: 'Funding stages of the company',
				},
				{
					displayName: 'Industries',
					name: 'industry',
					type: 'string',
					default: '',
					placeholder: 'software, fintech',
					description: `Exact industry names, any case. ${listHint}.`,
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
					options: SENIORITIES.map((value) => ({ name: label(value), value })),
				},
				{
					displayName: 'Tech Stack',
					name: 'techStack',
					type: 'string',
					default: '',
					placeholder: 'snowflake, react',
					description: `Technologies the company uses, exact names, any case. ${listHint}.`,
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

const LIST_FILTERS: Array<[parameter: string, filter: keyof SearchFilters]> = [
	['title', 'title'],
	['seniority', 'seniority'],
	['industry', 'industry'],
	['department', 'department'],
	['techStack', 'tech_stack'],
	['fundingStage', 'funding_stage'],
	['country', 'country'],
];

/** The contract's `filters` object from the filter parameters of one item, checked. */
export function readFilters(context: IExecuteFunctions, itemIndex: number): SearchFilters {
	const named = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const filters: IDataObject = {};
	for (const [parameter, filter] of LIST_FILTERS) {
		const values = toStringList(named[parameter]);
		if (values.length) filters[filter] = values;
	}
	if (typeof named.keywords === 'string' && named.keywords.trim() !== '') {
		filters.keywords = named.keywords.trim();
	}
	const min = named.companySizeMin;
	const max = named.companySizeMax;
	if (min !== undefined || max !== undefined) {
		filters.company_size = `${wholeNumber(min, 0)}-${wholeNumber(max, 1_000_000_000)}`;
	}

	const additional = context.getNodeParameter('additionalFilters.filter', itemIndex, []) as Array<{
		name?: string;
		value?: unknown;
	}>;
	for (const { name, value } of additional) {
		const key = String(name ?? '').trim();
		if (key === '') {
			throw new NodeOperationError(context.getNode(), `Additional Filters: a filter has no name [item ${itemIndex}]`, {
				itemIndex,
			});
		}
		filters[key] = (typeof value === 'string' ? parseLoose(value) : value) as IDataObject[string];
	}

	const raw = context.getNodeParameter('filtersJson', itemIndex, '{}') as unknown;
	const json = typeof raw === 'string' ? (raw.trim() === '' ? {} : parseObject(context, raw, itemIndex)) : raw;
	if (!json || typeof json !== 'object' || Array.isArray(json)) {
		throw new NodeOperationError(context.getNode(), `Additional Filters (JSON) must be a JSON object [item ${itemIndex}]`, {
			itemIndex,
		});
	}
	Object.assign(filters, json);

	const checked = checkBody(
		context,
		searchFiltersSchema,
		filters,
		itemIndex,
		prefixed(FILTER_PARAMETER_NAMES),
	);
	return checked;
}

/** The parameter names keyed without the leading `filters.`, as zod reports paths of `filters`. */
function prefixed(names: Record<string, string>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(names).map(([path, name]) => [path.replace(/^filters\.?/, ''), name]),
	);
}

function wholeNumber(value: unknown, fallback: number): number {
	const number = value === undefined || value === '' ? fallback : Number(value);
	return Number.isFinite(number) ? Math.trunc(number) : fallback;
}

function parseLoose(value: string): unknown {
	const trimmed = value.trim();
	try {
		return JSON.parse(trimmed) as unknown;
	} catch {
		return trimmed;
	}
}

function parseObject(context: IExecuteFunctions, raw: string, itemIndex: number): unknown {
	try {
		return jsonParse(raw);
	} catch {
		throw new NodeOperationError(context.getNode(), `Additional Filters (JSON) is not valid JSON [item ${itemIndex}]`, {
			itemIndex,
		});
	}
}
