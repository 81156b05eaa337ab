/** Input data for the cases, read from the sandbox with a plain client (rate limits off). */
import {
	LIMITS,
	PATHS,
	SENIORITIES,
	type SearchFilters,
} from '../../nodes/ContactData/shared/client/contract';
import { BENCH_KEY } from '../lib/bench.cjs';
import { call } from '../../test/harness/api';
import { apiHeaders } from '../lib/plainClient.cjs';
import type { RecordedRequest } from '../lib/requestCapture.cjs';

interface SearchPage {
	results: Array<{ id: string }>;
	total: number;
	next_cursor: string | null;
}

/**
 * `count` distinct contact ids. A search pages through 10,000 results at most, so larger sets are
 * gathered over one search per seniority.
 */
export async function contactIds(baseUrl: string, count: number): Promise<string[]> {
	const ids = new Set<string>();
	for (const filters of [
		{},
		...SENIORITIES.map((seniority) => ({ seniority: [seniority] })),
	] as SearchFilters[]) {
		let cursor: string | null = null;
		do {
			const reply = await call(
				baseUrl,
				'POST',
				PATHS.search,
				{ filters, limit: LIMITS.searchLimitMax, ...(cursor ? { cursor } : {}) },
				{ key: BENCH_KEY },
			);
			if (reply.status !== 200) throw new Error(`search for ids answered ${reply.status}`);
			const page = reply.body as SearchPage;
			for (const contact of page.results) ids.add(contact.id);
			cursor = page.next_cursor;
		} while (cursor && ids.size < count);
		if (ids.size >= count) return [...ids].slice(0, count);
	}
	throw new Error(`the sandbox holds only ${ids.size} contacts reachable by search`);
}

/**
 * `items` input items holding `ids.length` distinct ids: every `period`-th item repeats an id met
 * earlier (a fixed pseudo-random pick, often from an earlier batch of 100), the way a sheet of
 * leads gathered from several sources repeats people.
 */
export function itemsWithRepeats(ids: string[], items: number): Array<{ id: string; row: number }> {
	const repeats = items - ids.length;
	if (repeats < 0 || repeats > ids.length)
		throw new Error('repeats must be between 0 and the number of ids');
	const period = repeats > 0 ? Math.floor(items / repeats) : Infinity;
	const out: Array<{ id: string; row: number }> = [];
	let next = 0;
	let placed = 0;
	let state = 12345;
	for (let row = 0; row < items; row++) {
		if (placed < repeats && (row + 1) % period === 0) {
			state = (state * 1103515245 + 12345) % 2 ** 31;
			out.push({ id: ids[state % next], row });
			placed++;
		} else {
			out.push({ id: ids[next++], row });
		}
	}
	return out;
}

/** The unlock calls of the floor: the distinct ids in first-seen order, 100 a call. */
export function unlockFloorRequests(
	items: Array<{ id: string }>,
	apiKey: string,
): RecordedRequest[] {
	const unique = [...new Set(items.map((item) => item.id))];
	const requests: RecordedRequest[] = [];
	for (let i = 0; i < unique.length; i += LIMITS.idsPerUnlock) {
		requests.push({
			method: 'POST',
			path: PATHS.unlock,
			headers: apiHeaders(apiKey, true),
			body: JSON.stringify({ ids: unique.slice(i, i + LIMITS.idsPerUnlock), level: 'basic' }),
		});
	}
	return requests;
}
