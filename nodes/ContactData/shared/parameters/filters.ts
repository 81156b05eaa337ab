/** The search filters the node names, for Contact → Search and Saved List → Create. */
import {
	FUNDING_STAGES,
	KNOWN_DEPARTMENTS,
	KNOWN_INDUSTRIES,
	KNOWN_TECH_STACK,
	SENIORITIES,
	type SearchFilters,
} from '../client/contract';

export interface ListFilter {
	parameter: string;
	filter: keyof SearchFilters & string;
	displayName: string;
	description?: string;
	placeholder?: string;
	/** The service's identifiers, offered as options: values are matched to them as people write them. */
	known?: readonly string[];
	/** Whether only the known values exist (an enum): others are refused before sending. */
	closed?: true;
}

const LIST_HINT = 'Several values: separate them with commas, or give an array from an expression';
const PICK_HINT =
	'Choose from the list, or give other values from an expression, in plain words (the node turns them into the service’s names)';

export const LIST_FILTERS: ListFilter[] = [
	{
		parameter: 'title',
		filter: 'title',
		displayName: 'Job Titles',
		placeholder: 'e.g. VP Engineering, CTO',
		description: `A title matches when it holds every word of one of these as whole words, any case (CTO finds "Co-Founder & CTO"). ${LIST_HINT}.`,
	},
	{
		parameter: 'seniority',
		filter: 'seniority',
		displayName: 'Seniority',
		known: SENIORITIES,
		closed: true,
	},
	{
		parameter: 'industry',
		filter: 'industry',
		displayName: 'Industries',
		description: `Industries of the company. ${PICK_HINT}.`,
		known: KNOWN_INDUSTRIES,
	},
	{
		parameter: 'department',
		filter: 'department',
		displayName: 'Departments',
		description: `Departments of the person. ${PICK_HINT}.`,
		known: KNOWN_DEPARTMENTS,
	},
	{
		parameter: 'techStack',
		filter: 'tech_stack',
		displayName: 'Tech Stack',
		description: `Technologies the company uses. ${PICK_HINT}.`,
		known: KNOWN_TECH_STACK,
	},
	{
		parameter: 'fundingStage',
		filter: 'funding_stage',
		displayName: 'Funding Stage',
		description: 'Funding stages of the company',
		known: FUNDING_STAGES,
		closed: true,
	},
	{
		parameter: 'country',
		filter: 'country',
		displayName: 'Countries',
		placeholder: 'e.g. US, GB, DE',
		description: `ISO 3166 two-letter country codes. ${LIST_HINT}.`,
	},
];

export const COMPANY_SIZE = 'Company Size (Min/Max Employees)';

/** For errors. */
export const FILTER_PARAMETER_NAMES: Record<string, string> = {
	filters: 'Filters',
	...Object.fromEntries(
		LIST_FILTERS.map(({ filter, displayName }) => [`filters.${filter}`, displayName]),
	),
	'filters.company_size': COMPANY_SIZE,
	'filters.keywords': 'Keywords',
};
