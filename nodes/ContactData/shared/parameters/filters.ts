/**
 * The search filters the node names (Contact → Search, Saved List → Create from filters): each with
 * its parameter, the contract's filter it fills, the name the editor shows and the values the service
 * knows. The editor's fields are ./filterParameters, reading them ./readFilters, the advice when a
 * search finds nothing ./filterAdvice.
 */
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
	/** The service's identifiers: values are matched to them as people write them. */
	known?: readonly string[];
	/** Whether only the known values exist (an enum): others are refused before sending. */
	closed?: true;
}

export const LIST_FILTERS: ListFilter[] = [
	{ parameter: 'title', filter: 'title', displayName: 'Job Titles' },
	{
		parameter: 'seniority',
		filter: 'seniority',
		displayName: 'Seniority',
		known: SENIORITIES,
		closed: true,
	},
	{ parameter: 'industry', filter: 'industry', displayName: 'Industries', known: KNOWN_INDUSTRIES },
	{
		parameter: 'department',
		filter: 'department',
		displayName: 'Departments',
		known: KNOWN_DEPARTMENTS,
	},
	{
		parameter: 'techStack',
		filter: 'tech_stack',
		displayName: 'Tech Stack',
		known: KNOWN_TECH_STACK,
	},
	{
		parameter: 'fundingStage',
		filter: 'funding_stage',
		displayName: 'Funding Stage',
		known: FUNDING_STAGES,
		closed: true,
	},
	{ parameter: 'country', filter: 'country', displayName: 'Countries' },
];

export const COMPANY_SIZE = 'Company Size (Min/Max Employees)';

/** Display names of the parameters behind each filter, for errors. */
export const FILTER_PARAMETER_NAMES: Record<string, string> = {
	filters: 'Filters',
	...Object.fromEntries(
		LIST_FILTERS.map(({ filter, displayName }) => [`filters.${filter}`, displayName]),
	),
	'filters.company_size': COMPANY_SIZE,
	'filters.keywords': 'Keywords',
};
