/** `POST /v1/search`: previews of matching contacts, paged by cursors up to the 10,000-result cap. */
import {
	LIMITS,
	PATH_TEMPLATES,
	searchRequestSchema,
} from '../../nodes/ContactData/shared/client/contract';
import { asObject, invalidRequest, parseWith, type Answer } from '../http.cjs';
import { decodeToken, encodeToken } from '../json.cjs';
import { previewRecord } from '../records.cjs';
import type { RequestContext, Route } from '../router.cjs';
import { compileFilters, filtersDigest, sandboxFiltersSchema, scan } from '../search.cjs';

const sandboxSearchSchema = searchRequestSchema.extend({
	filters: sandboxFiltersSchema.default({}),
});

interface SearchCursor {
	/** Digest of the filters the cursor belongs to. */
	h: string;
	/** Results returned before this page. */
	o: number;
	/** Data set position to continue scanning from. */
	p: number;
}

function readCursor(token: string, digest: string): SearchCursor {
	const value = decodeToken(token) as Partial<SearchCursor> | undefined;
	if (
		!value ||
		typeof value !== 'object' ||
		typeof value.h !== 'string' ||
		!Number.isInteger(value.o) ||
		!Number.isInteger(value.p) ||
		(value.o as number) < 0 ||
		(value.p as number) < 0
	) {
		throw invalidRequest('cursor', 'is not a cursor from this search');
	}
	if (value.h !== digest) throw invalidRequest('cursor', 'belongs to a search with other filters');
	return value as SearchCursor;
}

async function search(ctx: RequestContext): Promise<Answer> {
	const { state, account } = ctx;
	const request = parseWith(sandboxSearchSchema, asObject(await ctx.body()));
	const compiled = compileFilters(state.ds, request.filters);
	const digest = filtersDigest(compiled);
	const cursor = request.cursor ? readCursor(request.cursor, digest) : { h: digest, o: 0, p: 0 };
	const limit = request.limit ?? LIMITS.searchLimitDefault;
	// The page holds up to `limit` results, never past the paging cap.
	const pageSizeFor = (total: number) =>
		Math.max(0, Math.min(limit, Math.min(total, LIMITS.searchPagingCap) - cursor.o));
	const indexes: number[] = [];
	let total = state.counter.cached(compiled);
	let next: number;
	if (total === undefined && cursor.p === 0) {
		// A first page: one full scan counts every match and collects the page.
		({ count: total, next } = scan(state.ds, compiled, 0, limit, indexes, true));
		state.counter.remember(compiled, total);
	} else {
		total ??= state.counter.count(compiled);
		const size = pageSizeFor(total);
		next = size > 0 ? scan(state.ds, compiled, cursor.p, size, indexes, false).next : cursor.p;
	}
	const reachable = Math.min(total, LIMITS.searchPagingCap);
	const pageSize = pageSizeFor(total);
	const returned = cursor.o + indexes.length;
	const more = indexes.length === pageSize && returned < reachable;
	return {
		status: 200,
		body: {
			results: indexes.map((index) =>
				previewRecord(state.ds, index, account.ledger.holding(index) !== undefined),
			),
			total,
			next_cursor: more ? encodeToken({ h: digest, o: returned, p: next }) : null,
			truncated: !more && total > LIMITS.searchPagingCap && returned >= LIMITS.searchPagingCap,
		},
	};
}

export const searchRoutes: Route[] = [
	{ method: 'POST', template: PATH_TEMPLATES.search, handler: search },
];
