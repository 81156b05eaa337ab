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

/** The static-data key of the baselines, by saved-list id. */
const BASELINES_KEY = 'baselines';

/** The members of one list as a poll saw them, built a member at a time. */
export class ListSnapshot {
	private readonly titles: Array<string | null> = [];
	private readonly companies: Array<[string | null, string | null]> = [];
	private readonly titleIndex = new Map<string, number>();
	private readonly companyIndex = new Map<string, number>();
	private readonly ids: string[] = [];
	private readonly title: number[] = [];
	private readonly company: number[] = [];
	private readonly positions = new Map<string, number>();

	get size(): number {
		return this.ids.length;
	}

	/** Adds a member (a repeated id keeps its first sighting). */
	add(id: string, side: JobSide): void {
		if (this.positions.has(id)) return;
		this.positions.set(id, this.ids.length);
		this.ids.push(id);
		this.title.push(intern(this.titles, this.titleIndex, side.title));
		this.company.push(
			intern(this.companies, this.companyIndex, [side.company.name, side.company.domain]),
		);
	}

	/** A member's title and company, or `undefined` when the list did not hold it. */
	sideOf(id: string): JobSide | undefined {
		const position = this.positions.get(id);
		if (position === undefined) return undefined;
		const [name, domain] = this.companies[this.company[position]];
		return { title: this.titles[this.title[position]], company: { name, domain } };
	}

	toStored(): StoredBaseline {
		return {
			titles: this.titles,
			companies: this.companies,
			ids: this.ids,
			title: this.title,
			company: this.company,
		};
	}

	static fromStored(stored: unknown): ListSnapshot | undefined {
		if (!isStored(stored)) return undefined;
		const snapshot = new ListSnapshot();
		for (let i = 0; i < stored.ids.length; i++) {
			const [name, domain] = stored.companies[stored.company[i]] ?? [null, null];
			snapshot.add(stored.ids[i], {
				title: stored.titles[stored.title[i]] ?? null,
				company: { name, domain },
			});
		}
		return snapshot;
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
	const stored = value as StoredBaseline | null;
	return (
		typeof stored === 'object' &&
		stored !== null &&
		[stored.titles, stored.companies, stored.ids, stored.title, stored.company].every(
			Array.isArray,
		) &&
		stored.ids.length === stored.title.length &&
		stored.ids.length === stored.company.length
	);
}

function baselinesOf(staticData: IDataObject): IDataObject {
	const baselines = staticData[BASELINES_KEY];
	return typeof baselines === 'object' && baselines !== null ? (baselines as IDataObject) : {};
}

/** Baselines already decoded, by stored object: the end of a poll reads them again for free. */
const decoded = new WeakMap<object, ListSnapshot>();

/** The baseline of a list, or `undefined` before the first poll of it. */
export function readBaseline(staticData: IDataObject, listId: string): ListSnapshot | undefined {
	const stored = baselinesOf(staticData)[listId];
	if (typeof stored !== 'object' || stored === null) return undefined;
	let snapshot = decoded.get(stored);
	if (snapshot === undefined) {
		snapshot = ListSnapshot.fromStored(stored);
		if (snapshot !== undefined) decoded.set(stored, snapshot);
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
		const stored = snapshot.toStored();
		decoded.set(stored, snapshot);
		baselines[listId] = stored;
	}
	staticData[BASELINES_KEY] = baselines;
}
