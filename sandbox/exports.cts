/**
 * List exports: CSV (RFC 4180) or JSON, written a chunk at a time with backpressure so memory
 * stays constant whatever the list's size.
 */
import type { ServerResponse } from 'node:http';
import type { ExportFormat } from '../nodes/ContactData/shared/client/contract';
import { csvCell, csvColumn } from './csv.cjs';
import type { Dataset } from './data.cjs';
import type { ListStore, SavedList } from './lists.cjs';
import type { MatchCounter } from './search.cjs';
import {
	LEVEL_RANK,
	contactRecord,
	fieldPathsAt,
	fieldReader,
	levelOf,
	type Holding,
	type RecordLevel,
} from './records.cjs';

/** Members materialized per written chunk. */
const CHUNK_MEMBERS = 1_000;

/** `Content-Disposition` naming the file after the list (a UTF-8 form too when the name needs it). */
function contentDisposition(listName: string, format: ExportFormat): string {
	const filename = `${listName}.${format}`;
	const plain = /^[\x20-\x7e]*$/.test(filename) && !/["\\]/.test(filename);
	if (plain) return `attachment; filename="${filename}"`;
	const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
	return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
	csv: 'text/csv; charset=utf-8',
	json: 'application/json; charset=utf-8',
};

export interface ExportSource {
	ds: Dataset;
	lists: ListStore;
	list: SavedList;
	holding: (index: number) => Holding | undefined;
	/** Contacts the account holds (to find the highest level among members). */
	holdings: () => Iterable<number>;
	/** Only members the account holds (`unlocked_only`). */
	unlockedOnly: boolean;
}

/** How many members an export holds: every member, or with `unlocked_only` those the account holds. */
export function exportedCount(source: ExportSource, counter: MatchCounter): number {
	const { ds, lists, list } = source;
	if (!source.unlockedOnly) return lists.count(ds, list, counter);
	let count = 0;
	for (const index of source.holdings()) if (lists.isMember(ds, list, index)) count++;
	return count;
}

/** The exported members in data set order, a chunk at a time. */
function* memberChunks(source: ExportSource): Generator<number[]> {
	const { ds, lists, list } = source;
	for (let position = 0; position < ds.size; ) {
		let members: number[] = [];
		position = lists.members(ds, list, position, CHUNK_MEMBERS, members);
		if (source.unlockedOnly)
			members = members.filter((index) => source.holding(index) !== undefined);
		if (members.length > 0) yield members;
	}
}

/** CSV's default columns: every field at the highest level any member is held at. */
function defaultCsvFields(source: ExportSource): string[] {
	let level: RecordLevel = 'preview';
	for (const index of source.holdings()) {
		const held = levelOf(source.holding(index));
		if (
			LEVEL_RANK[held] > LEVEL_RANK[level] &&
			source.lists.isMember(source.ds, source.list, index)
		)
			level = held;
		if (level === 'premium') break;
	}
	return fieldPathsAt(level);
}

/** Sets a dotted path in a nested object. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
	const parts = path.split('.');
	let node = target;
	for (const part of parts.slice(0, -1)) {
		if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
		node = node[part] as Record<string, unknown>;
	}
	node[parts[parts.length - 1]] = value;
}

/** Renders members, chunk by chunk, as text. */
function* renderChunks(
	source: ExportSource,
	format: ExportFormat,
	fields: string[] | undefined,
): Generator<string> {
	const { ds } = source;
	if (format === 'csv') {
		const paths = fields ?? defaultCsvFields(source);
		const columns = paths.map((path) => csvColumn(ds, path));
		const width = columns.length;
		yield `${paths.map(csvCell).join(',')}\r\n`;
		for (const members of memberChunks(source)) {
			let text = '';
			for (const index of members) {
				const holding = source.holding(index);
				text += columns[0](index, holding);
				for (let c = 1; c < width; c++) text += `,${columns[c](index, holding)}`;
				text += '\r\n';
			}
			yield text;
		}
		return;
	}
	const readers = fields?.map((path) => ({ path, read: fieldReader(path) }));
	yield '{"contacts":[';
	let first = true;
	for (const members of memberChunks(source)) {
		const parts: string[] = [];
		for (const index of members) {
			const holding = source.holding(index);
			let record: Record<string, unknown>;
			if (readers) {
				record = {};
				for (const { path, read } of readers) setPath(record, path, read(ds, index, holding));
			} else {
				record = contactRecord(ds, index, holding);
			}
			parts.push(JSON.stringify(record));
		}
		yield (first ? '' : ',') + parts.join(',');
		first = false;
	}
	yield ']}';
}

/** Waits until the response can take more data (or the client went away). */
function drainedOrClosed(res: ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			res.off('drain', done);
			res.off('close', done);
			resolve();
		};
		res.on('drain', done);
		res.on('close', done);
	});
}

/** Streams an export as the body of a 200 answer, honouring backpressure. */
export async function streamExport(
	res: ServerResponse,
	source: ExportSource,
	format: ExportFormat,
	fields: string[] | undefined,
): Promise<void> {
	res.writeHead(200, {
		'content-type': CONTENT_TYPES[format],
		'content-disposition': contentDisposition(source.list.name, format),
	});
	let closed = false;
	res.once('close', () => {
		closed = true;
	});
	for (const chunk of renderChunks(source, format, fields)) {
		if (closed) return;
		if (!res.write(chunk)) await drainedOrClosed(res);
		// Let other requests run between chunks: a fast socket drains without the event loop turning.
		await new Promise((resolve) => setImmediate(resolve));
	}
	if (!closed) res.end();
}
