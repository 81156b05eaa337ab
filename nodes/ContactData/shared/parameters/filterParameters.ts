/**
 * The editor's search filter fields: the named filters (values offered as people write them), any
 * further filter by name, and further filters as JSON.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import {
	FUNDING_STAGES,
	KNOWN_DEPARTMENTS,
	KNOWN_INDUSTRIES,
	KNOWN_TECH_STACK,
	SENIORITIES,
} from '../client/contract';
import { VERSION_1, shownWhen } from './versions';

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
};

/** Short words Title Case keeps in lower case inside a label ("Food and Beverage"). */
const MINOR_WORDS = new Set([
	'a',
	'an',
	'and',
	'as',
	'at',
	'by',
	'for',
	'in',
	'of',
	'on',
	'or',
	'the',
	'to',
]);

/** An option's label from its API value, in Title Case as n8n's guideline asks. */
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

const choicesOf = (values: readonly string[]) =>
	values
		.map((value) => ({ name: label(value), value }))
		.sort((a, b) => a.name.localeCompare(b.name));

const listHint = 'Several values: separate them with commas, or give an array from an expression';
const pickHint =
	'Choose from the list, or give other values from an expression, in plain words (the node turns them into the service’s names)';

/** The filters the node names, in one collection (the editor sorts its options by name). */
const NAMED_FILTERS: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
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
			placeholder: 'e.g. US, GB, DE',
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
			placeholder: 'e.g. VP Engineering, CTO',
			description: `A title matches when it holds every word of one of these as whole words, any case (CTO finds "Co-Founder & CTO"). ${listHint}.`,
		},
		{
			displayName: 'Keywords',
			name: 'keywords',
			type: 'string',
			default: '',
			description: 'Every word must begin a word of the name, title, company name or city',
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
};

/** Any further filter of the service, by name and value. */
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

/** Further filters as one JSON object, merged over the ones above. */
const ADDITIONAL_FILTERS_JSON: INodeProperties = {
	displayName: 'Additional Filters (JSON)',
	name: 'filtersJson',
	type: 'json',
	default: '{}',
	description:
		'Further filters as a JSON object, merged over the ones above, e.g. {"revenue_range": ["10m-50m"]}',
};

/**
 * The filter fields of Search and of Create from Search Filters: one property each for both (Create
 * From is set only on Create, so hiding them when it is Contact IDs leaves Search as it is).
 * The JSON field stays in version 1 only: n8n's rules want no open-ended JSON field, and Additional
 * Filters already takes any filter by name, its value read as JSON.
 */
const showForFilters: IDisplayOptions = {
	show: { resource: ['contact', 'savedList'], operation: ['search', 'create'] },
	hide: { createFrom: ['contactIds'] },
};

export const FILTER_PROPERTIES: INodeProperties[] = [
	{ ...NAMED_FILTERS, displayOptions: showForFilters },
	{ ...ADDITIONAL_FILTERS, displayOptions: showForFilters },
	{ ...ADDITIONAL_FILTERS_JSON, displayOptions: shownWhen(showForFilters, VERSION_1) },
];
