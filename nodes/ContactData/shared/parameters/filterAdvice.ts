/** The advice when a search (or a list from filters) finds nothing: how text filters match. */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { SearchFilters } from '../client/contract';
import { LIST_FILTERS } from './filters';
import { showValue } from './values';

/** Filters whose text the service matches exactly or word by word, in the order advice names them. */
const TEXT_FILTERS = ['title', 'department', 'industry', 'tech_stack', 'keywords'] as const;

function textFilterAdvice(filters: SearchFilters): string | undefined {
	const advice: string[] = [];
	for (const filter of TEXT_FILTERS) {
		const value = filters[filter];
		if (value === undefined) continue;
		const source = LIST_FILTERS.find((entry) => entry.filter === filter);
		if (filter === 'keywords') {
			advice.push(
				`Keywords ${showValue(value)}: every word must begin a word of the name, title, company name or city`,
			);
		} else if (filter === 'title') {
			advice.push(
				`Job Titles ${showValue(value)} match whole words ("CTO" finds "CTO & Co-Founder", not "Director")`,
			);
		} else if (source?.known) {
			const known = source.known;
			const unknown = (value as string[]).filter((entry) => !known.includes(entry));
			advice.push(
				unknown.length
					? `${source.displayName} ${showValue(unknown)} ${unknown.length === 1 ? 'is not a value' : 'are not values'} the service lists; it writes them in lower case with underscores, e.g. ${known.slice(0, 6).join(', ')} (pick them from the list in the editor)`
					: `${source.displayName} ${showValue(value)} are matched exactly`,
			);
		}
	}
	return advice.length ? advice.join('; ') : undefined;
}

/** Collected over the items, shown once in the output pane. */
export class NoMatchAdvice {
	private readonly advice: string[] = [];

	/** With more than one input item, advice names its item. */
	constructor(private readonly itemCount: number) {}

	note(itemIndex: number, filters: SearchFilters, found: number): void {
		const advice = found === 0 ? textFilterAdvice(filters) : undefined;
		if (advice) this.advice.push(this.itemCount > 1 ? `item ${itemIndex}: ${advice}` : advice);
	}

	/** After `lead` ("No contacts matched."). */
	hint(context: IExecuteFunctions, lead: string): void {
		if (this.advice.length === 0) return;
		context.addExecutionHints({
			message: `${lead} Text filters match the service’s values exactly or word by word, so one of these may be at fault: ${this.advice.join(' | ')}.`,
			location: 'outputPane',
		});
	}
}
