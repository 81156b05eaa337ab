/** The advice when a search (or a list from filters) finds nothing: how its text filters are matched. */
import type { SearchFilters } from '../client/contract';
import { LIST_FILTERS } from './filters';
import { showValue } from './values';

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
