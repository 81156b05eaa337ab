/**
 * Saved lists of one account. A list is a saved search (its members are all the search's
 * matches, uncapped) plus contacts added by id, less contacts removed by id. `added` and
 * `removed` stay disjoint, so the count is the search's count adjusted by both.
 */
import { randomBytes } from 'node:crypto';
import { ID_PREFIXES } from '../nodes/ContactData/shared/client/contract';
import type { Dataset } from './data.cjs';
import {
	compileFilters,
	matchesAt,
	scan,
	type CompiledFilters,
	type KnownFilters,
	type MatchCounter,
} from './search.cjs';

export interface SavedList {
	id: string;
	name: string;
	filters: KnownFilters | null;
	compiled: CompiledFilters | null;
	added: Set<number>;
	removed: Set<number>;
	createdAt: string;
	updatedAt: string;
	/** Where the next sandbox event picks members (events walk through the list). */
	eventPosition: number;
}

export class ListStore {
	private readonly lists = new Map<string, SavedList>();

	create(
		ds: Dataset,
		name: string,
		filters: KnownFilters | null,
		indexes: number[],
		at: string,
	): SavedList {
		const list: SavedList = {
			id: ID_PREFIXES.list + randomBytes(8).toString('hex'),
			name,
			filters,
			compiled: filters ? compileFilters(ds, filters) : null,
			added: new Set(indexes),
			removed: new Set(),
			createdAt: at,
			updatedAt: at,
			eventPosition: 0,
		};
		this.lists.set(list.id, list);
		return list;
	}

	get(id: string): SavedList | undefined {
		return this.lists.get(id);
	}

	delete(id: string): boolean {
		return this.lists.delete(id);
	}

	all(): SavedList[] {
		return [...this.lists.values()];
	}

	isMember(ds: Dataset, list: SavedList, index: number): boolean {
		if (list.removed.has(index)) return false;
		return list.added.has(index) || (list.compiled !== null && matchesAt(ds, list.compiled, index));
	}

	count(ds: Dataset, list: SavedList, counter: MatchCounter): number {
		if (!list.compiled) return list.added.size;
		let count = counter.count(list.compiled);
		for (const index of list.added) if (!matchesAt(ds, list.compiled, index)) count++;
		for (const index of list.removed) if (matchesAt(ds, list.compiled, index)) count--;
		return count;
	}

	/** Adds contacts; returns how many were not members before. */
	add(ds: Dataset, list: SavedList, indexes: number[], at: string): number {
		let added = 0;
		for (const index of indexes) {
			if (this.isMember(ds, list, index)) continue;
			list.removed.delete(index);
			list.added.add(index);
			added++;
		}
		if (added > 0) list.updatedAt = at;
		return added;
	}

	/** Removes contacts; returns how many were members. */
	remove(ds: Dataset, list: SavedList, indexes: number[], at: string): number {
		let removed = 0;
		for (const index of indexes) {
			if (!this.isMember(ds, list, index)) continue;
			list.added.delete(index);
			list.removed.add(index);
			removed++;
		}
		if (removed > 0) list.updatedAt = at;
		return removed;
	}

	/**
	 * Members in data set order, a chunk at a time: appends up to `max` members from position
	 * `from` to `out` and returns the position to continue from (ds.size when done).
	 */
	members(ds: Dataset, list: SavedList, from: number, max: number, out: number[]): number {
		const stop = out.length + max;
		if (!list.compiled) {
			const sorted = [...list.added].sort((a, b) => a - b);
			for (const index of sorted) {
				if (index < from) continue;
				if (out.length >= stop) return index;
				out.push(index);
			}
			return ds.size;
		}
		const compiled = list.compiled;
		const { added, removed } = list;
		// A pure saved search: the search's own scan.
		if (added.size === 0 && removed.size === 0)
			return scan(ds, compiled, from, max, out, false).next;
		const checkAdded = added.size > 0;
		const checkRemoved = removed.size > 0;
		for (let i = from; i < ds.size; i++) {
			if (checkRemoved && removed.has(i)) continue;
			if (matchesAt(ds, compiled, i) || (checkAdded && added.has(i))) {
				out.push(i);
				if (out.length >= stop) return i + 1;
			}
		}
		return ds.size;
	}
}
