/**
 * Return All follows cursors until the API says there are no more pages. An API that gives a
 * cursor it gave before, or pages that add nothing new, would keep it going forever: this stops it
 * with an error that says so, after one call too many at most.
 */
import type { IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { apiFailure } from './failures';

export class CursorTrail {
	private readonly cursors = new Set<string>();
	private readonly ids = new Set<string>();
	private pages = 0;

	constructor(
		private readonly context: IExecuteFunctions,
		/** The call being paged, as the error names it (`POST /v1/search`). */
		private readonly call: string,
		private readonly itemIndex: number,
	) {}

	/** Checks a page before its `nextCursor` is followed; throws when following it could go round forever. */
	follow(pageIds: string[], nextCursor: string | null): void {
		this.pages++;
		const before = this.ids.size;
		for (const id of pageIds) this.ids.add(id);
		if (nextCursor === null) return;
		if (this.cursors.has(nextCursor)) throw this.looping('gave the same cursor twice');
		if (this.ids.size === before) throw this.looping('answered a page that added nothing new');
		this.cursors.add(nextCursor);
	}

	private looping(what: string): NodeApiError {
		return apiFailure(this.context.getNode(), 'unreadableAnswer', {
			code: 'cursor_loop',
			message: `Return All stopped: the Contact Data API ${what}`,
			description: `Paging through ${this.call} would not have ended, so it stopped after ${this.pages} pages (${this.ids.size} distinct results). Try again later, or turn off Return All and set a Limit.`,
			itemIndex: this.itemIndex,
		});
	}
}
