/**
 * What a poll saw of each watched list, in the node's static data: each member's title and company
 * as exported, for a change's `previous` side. Titles and companies are kept once each in a table,
 * so a member costs its id and two indexes (about 20 bytes of JSON).
 */
import type { IDataObject } from 'n8n-workflow';

import type { JobSide } from '../shared/items/changes';

/** Parallel arrays, member i being ids[i]; a type, not an interface, so it is an IDataObject. */
type StoredBaseline = {
	titles: Array<string | null>;
	/** [name, domain] */
	companies: Array<[string | null, string | null]>;
	ids: string[];
	title: number[];
	company: number[];
};

const BASELINES_KEY = 'baselines';

/** The members of one list as a poll saw them, built a member at a time. */
export class ListSnapshot {
	readonly stored: StoredBaseline = { titles: [], companies: [], ids: [], title: [], company: [] };
	private readonly titleIndex = new Map<string, number>();
	private readonly companyIndex = new Map<string, number>();
	private readonly positions = new Map<string, number>();

	get size(): number {
		return this.stored.ids.length;
	}

	/** Adds a member (a repeated id keeps its first sighting). */
	add(id: string, { title, company }: JobSide): void {
		const { ids, titles, companies } = this.stored;
		if (this.positions.has(id)) return;
		this.positions.set(id, ids.length);
		ids.push(id);
		this.stored.title.push(intern(titles, this.titleIndex, title));
		this.stored.company.push(intern(companies, this.companyIndex, [company.name, company.domain]));
	}

	/** A member's title and company, or `undefined` when the list did not hold it. */
	sideOf(id: string): JobSide | undefined {
		const position = this.positions.get(id);
		if (position === undefined) return undefined;
		const { titles, companies, title, company } = this.stored;
		const [name, domain] = companies[company[position]];
		return { title: titles[title[position]], company: { name, domain } };
	}
}

/** The index of `value` in `table`, added when new; `index` finds it by its JSON. */
function intern<T>(table: T[], index: Map<string, number>, value: T): number {
	const key = JSON.stringify(value);
	let at = index.get(key);
	if (at === undefined) {
		at = table.push(value) - 1;
		index.set(key, at);
	}
	return at;
}

function isStored(value: unknown): value is StoredBaseline {
	const stored = (value ?? {}) as StoredBaseline;
	const { ids, title, company } = stored;
	return (
		[stored.titles, stored.companies, ids, title, company].every(Array.isArray) &&
		ids.length === title.length &&
		ids.length === company.length
	);
}

/** Baselines already decoded, by stored object: the end of a poll reads them again for free. */
const decoded = new WeakMap<object, ListSnapshot>();

/** The baseline of a list, or `undefined` before the first poll of it. */
export function readBaseline(staticData: IDataObject, listId: string): ListSnapshot | undefined {
	const stored = (staticData[BASELINES_KEY] as IDataObject | undefined)?.[listId];
	if (!isStored(stored)) return undefined;
	let snapshot = decoded.get(stored);
	if (snapshot === undefined) {
		snapshot = new ListSnapshot();
		for (let i = 0; i < stored.ids.length; i++) {
			const [name, domain] = stored.companies[stored.company[i]] ?? [null, null];
			const title = stored.titles[stored.title[i]] ?? null;
			snapshot.add(stored.ids[i], { title, company: { name, domain } });
		}
		decoded.set(stored, snapshot);
	}
	return snapshot;
}

/** Replaces the baselines with what this poll saw: lists no longer watched are dropped. */
export function writeBaselines(
	staticData: IDataObject,
	snapshots: Map<string, ListSnapshot>,
): void {
	const baselines: IDataObject = {};
	for (const [listId, snapshot] of snapshots) {
		decoded.set(snapshot.stored, snapshot);
		baselines[listId] = snapshot.stored;
	}
	staticData[BASELINES_KEY] = baselines;
}
