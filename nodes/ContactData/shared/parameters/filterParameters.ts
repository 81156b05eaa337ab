/**
 * The editor's search filter fields: named filters, any further filter by name, and as JSON; from
 * 2.2 one Filters section, the further filters by name inside it.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { LIST_FILTERS, type ListFilter } from './filters';
import { BEFORE_VERSION_2_2, FROM_VERSION_2_2, VERSION_1, shownWhen } from './versions';

const SPECIAL_LABELS: Record<string, string> = {
	vp: 'VP',
	c_suite: 'C-Suite',
	ipo: 'IPO',
	aws: 'AWS',
	gcp: 'GCP',
	e_commerce: 'E-Commerce',
	pre_seed: 'Pre-Seed',
	'node.js': 'Node.js',
	postgresql: 'PostgreSQL',
	mysql: 'MySQL',
	mongodb: 'MongoDB',
	hubspot: 'HubSpot',
	information_technology: 'Information Technology (IT)',
	human_resources: 'Human Resources (People)',
	linkedin_url: 'LinkedIn URL',
};

/** Short words Title Case keeps in lower case inside a label ("Food and Beverage"). */
const MINOR_WORDS = new Set('a an and as at by for in of on or the to'.split(' '));

/** An option's name from its API value, in Title Case as n8n's guideline asks. */
const label = (value: string) =>
	SPECIAL_LABELS[value] ??
	value
		.split(/[_ ]/)
		.map((word, index, words) =>
			MINOR_WORDS.has(word) && index > 0 && index < words.length - 1
				? word
				: word.charAt(0).toUpperCase() + word.slice(1),
		)
		.join(' ');

export const choicesOf = (values: readonly string[]) =>
	values
		.map((value) => ({ name: label(value), value }))
		.sort((a, b) => a.name.localeCompare(b.name));

function listFilterField(listFilter: ListFilter): INodeProperties {
	const { parameter: name, displayName, description, placeholder, known } = listFilter;
	const field: INodeProperties = known
		? { displayName, name, type: 'multiOptions', default: [], options: choicesOf(known) }
		: { displayName, name, type: 'string', default: '', placeholder };
	return description === undefined ? field : { ...field, description };
}

const OTHER_NAMED_FILTERS: INodeProperties[] = [
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
		displayName: 'Keywords',
		name: 'keywords',
		type: 'string',
		default: '',
		description: 'Every word must begin a word of the name, title, company name or city',
	},
];

export const OTHER_FILTERS_LABEL = 'Other Filters by API Name';

/**
 * 2.2's way to the API's further filters: by name, a value read as the named filters read theirs.
 * n8n shows a fixedCollection as a label with a tooltip, never its hint: the guidance is its Name
 * field's hint, and its button names what it adds (the Filters section's button is "Add Filter").
 */
const OTHER_FILTERS: INodeProperties = {
	displayName: OTHER_FILTERS_LABEL,
	name: 'otherFilters',
	type: 'fixedCollection',
	placeholder: 'Add Filter by API Name',
	typeOptions: { multipleValues: true },
	default: {},
	description: 'Any of the API’s 270+ further filters, by its name',
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
					placeholder: 'e.g. revenue_range',
					hint: 'The API has 270+ filters besides those above: give one by its name as the Contact Data API reference lists it',
					description: 'The filter’s name in the API',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					placeholder: 'e.g. 10m-50m, 50m-100m',
					description:
						'Text, a number or true/false, as typed. Several values: separate them with commas (a list of one: end it with a comma).',
				},
			],
		},
	],
};

/** Sorted by name, as the editor shows them. */
function filtersSection(more: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Filters combine with AND; within one filter any of the values matches',
		options: [...OTHER_NAMED_FILTERS, ...LIST_FILTERS.map(listFilterField), ...more].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}

const ADDITIONAL_FILTERS: INodeProperties = {
	displayName: 'Additional Filters',
	name: 'additionalFilters',
	type: 'fixedCollection',
	placeholder: 'Add Additional Filter',
	typeOptions: { multipleValues: true },
	default: {},
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
					placeholder: 'e.g. revenue_range',
					description: 'The filter’s name in the API',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					placeholder: 'e.g. ["10m-50m"]',
				},
			],
		},
	],
};

const ADDITIONAL_FILTERS_JSON: INodeProperties = {
	displayName: 'Additional Filters (JSON)',
	name: 'filtersJson',
	type: 'json',
	default: '{}',
	description:
		'Further filters as a JSON object, merged over the ones above, e.g. {"revenue_range": ["10m-50m"]}',
};

/**
 * Create From is set only on Create. The JSON field is version 1's only: n8n's rules want no
 * open-ended JSON field, and Additional Filters takes any filter by name, its value read as JSON.
 * From 2.2 the Filters section holds the further filters too, and nothing is read as JSON.
 */
const showForFilters: IDisplayOptions = {
	show: { resource: ['contact', 'savedList'], operation: ['search', 'create'] },
	hide: { createFrom: ['contactIds'] },
};

export const FILTER_PROPERTIES: INodeProperties[] = [
	{ ...filtersSection([]), displayOptions: shownWhen(showForFilters, BEFORE_VERSION_2_2) },
	{
		...filtersSection([OTHER_FILTERS]),
		displayOptions: shownWhen(showForFilters, FROM_VERSION_2_2),
	},
	{ ...ADDITIONAL_FILTERS, displayOptions: shownWhen(showForFilters, BEFORE_VERSION_2_2) },
	{ ...ADDITIONAL_FILTERS_JSON, displayOptions: shownWhen(showForFilters, VERSION_1) },
];
