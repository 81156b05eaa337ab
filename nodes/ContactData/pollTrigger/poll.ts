/**
 * One poll: export every watched list, compare each member with the baseline, emit the changes and
 * advance the baseline in one step (docs/trigger.md, "Polling", says why).
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { contactPreviewSchema } from '../shared/client/contract';
import { exportedContacts } from '../shared/client/exportContacts';
import { openSignedUrl, startExport } from '../shared/client/exportDownload';
import { OperationError } from '../shared/client/failures';
import {
	changeBetween,
	jobChangeKey,
	type JobChangeType,
	type JobSide,
} from '../shared/items/changes';
import { eventItem, type ContactEvent } from '../shared/items/eventItem';
import { ListSnapshot, readBaseline, writeBaselines } from './baseline';
import { readPollSettings } from './parameters';

/**
 * Members a poll accepts across its watched lists. The baseline costs about 20 bytes of static
 * data a member (measured by `npm run bench`), so this keeps it under about 5 MB, which n8n saves
 * with the workflow whenever a poll emits.
 */
export const MAX_WATCHED_MEMBERS = 250_000;

/** A poll running longer than this no longer holds back the next one (it is taken as lost). */
const IN_FLIGHT_LIMIT_MS = 30 * 60 * 1000;

/** Polls under way in this process, by workflow and node: an overlapping poll does nothing. */
const pollsInFlight = new Map<string, number>();

interface MemberChange {
	record: IDataObject;
	type: JobChangeType;
	previous: JobSide;
	current: JobSide;
}

interface ListRead {
	listId: string;
	/** The baseline the read was compared with; `undefined` at a list's first poll. */
	baseline: ListSnapshot | undefined;
	seen: ListSnapshot;
	/** Each member whose job changed against that baseline, by id. */
	changed: Map<string, MemberChange>;
	first?: IDataObject;
}

/**
 * The fields a member is exported with: the contact preview's, which is what an event carries (a
 * poll needs title and company to compare, and the rest to emit the contact as the webhook does).
 */
export const EXPORTED_FIELDS = Object.entries(contactPreviewSchema.shape).flatMap(
	([field, schema]) =>
		schema instanceof z.ZodObject
			? Object.keys(schema.shape).map((inner) => `${field}.${inner}`)
			: [field],
);

/** A list's members through its export (free, not rate limited), one at a time as it streams in. */
async function exportedMembers(
	context: IPollFunctions,
	listId: string,
): Promise<AsyncGenerator<IDataObject>> {
	const { started, bulk } = await startExport.call(
		context,
		listId,
		{ body: { format: 'json', fields: EXPORTED_FIELDS }, pathParameter: 'Saved Lists to Watch' },
		'Nothing was compared; the next poll tries again.',
	);
	const file = bulk === undefined ? started : await openSignedUrl.call(context, bulk.url);
	return exportedContacts(file.body);
}

function text(value: unknown): string | null {
	return typeof value === 'string' ? value : null;
}

/** The title and company of an exported member, as an event's `changes` side. */
function sideOfMember(record: IDataObject): JobSide {
	const company = (record.company ?? {}) as IDataObject;
	return {
		title: text(record.title),
		company: { name: text(company.name), domain: text(company.domain) },
	};
}

function tooLarge(context: IPollFunctions, listId: string): OperationError {
	return new OperationError(
		context,
		`The saved lists to watch hold more than ${MAX_WATCHED_MEMBERS.toLocaleString('en-US')} contacts (passed while reading ${listId})`,
		{
			description: `A poll compares at most ${MAX_WATCHED_MEMBERS.toLocaleString('en-US')} members in all, because it keeps each one in the workflow's saved data. Watch smaller lists, or use the Contact Data Trigger (webhook), which has no such limit. Nothing was emitted and the baseline did not move.`,
		},
	);
}

/** Every watched list's members, each compared with its list's baseline. */
async function readLists(
	context: IPollFunctions,
	staticData: IDataObject,
	listIds: string[],
): Promise<ListRead[]> {
	const reads: ListRead[] = [];
	let countBefore = 0;
	for (const listId of listIds) {
		const baseline = readBaseline(staticData, listId);
		const read: ListRead = { listId, baseline, seen: new ListSnapshot(), changed: new Map() };
		for await (const record of await exportedMembers(context, listId)) {
			const id = text(record.id);
			if (id === null) continue;
			const side = sideOfMember(record);
			read.seen.add(id, side);
			if (countBefore + read.seen.size > MAX_WATCHED_MEMBERS) throw tooLarge(context, listId);
			read.first ??= record;
			const previous = baseline?.sideOf(id);
			if (previous === undefined) continue;
			const type = changeBetween(previous, side);
			if (type !== undefined) read.changed.set(id, { record, type, previous, current: side });
		}
		countBefore += read.seen.size;
		reads.push(read);
	}
	return reads;
}

/** A change as the webhook would deliver it; a poll has no event id, so `id` names the change. */
function changeEvent(
	listId: string,
	{ record, type, previous, current }: MemberChange,
	at: string,
): ContactEvent {
	const contact = { ...record, id: String(record.id) };
	const changes = { previous, current };
	const id = `chg_${jobChangeKey(listId, contact.id, type, changes)}`;
	return { id, type, created_at: at, list_id: listId, contact, changes };
}

/** "Fetch Test Event" when no change is pending: the first member as they are now. */
function firstMemberSample(reads: ListRead[], type: JobChangeType, at: string): ContactEvent[] {
	const read = reads.find((candidate) => candidate.first !== undefined);
	const record = read?.first;
	if (read === undefined || record === undefined) return [];
	const current = read.seen.sideOf(String(record.id))!;
	const previous = read.baseline?.sideOf(String(record.id)) ?? current;
	return [changeEvent(read.listId, { record, type, previous, current }, at)];
}

export async function pollWatchedLists(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const settings = readPollSettings.call(this);
	const manual = this.getMode() === 'manual';
	const staticData = this.getWorkflowStaticData('node');
	const key = `${this.getWorkflow().id ?? ''} ${this.getNode().id}`;
	const now = Date.now();
	const startedAt = pollsInFlight.get(key);
	if (!manual && startedAt !== undefined && now - startedAt < IN_FLIGHT_LIMIT_MS) return null;
	if (!manual) pollsInFlight.set(key, now);
	try {
		const reads = await readLists(this, staticData, settings.listIds);
		// Nothing awaits from here on, so emitting and advancing the baseline are one step. A poll
		// overtaken by a newer one (past IN_FLIGHT_LIMIT_MS) read before that one advanced the
		// baseline: it emits nothing and moves nothing, or it would repeat changes or step back.
		if (reads.some((read) => readBaseline(staticData, read.listId) !== read.baseline)) return null;
		const at = new Date().toISOString();
		const found = reads.flatMap((read) =>
			[...read.changed.values()]
				.filter(({ type }) => settings.events.includes(type))
				.map((change) => changeEvent(read.listId, change, at)),
		);
		const sample = manual && found.length === 0;
		const events = sample ? firstMemberSample(reads, settings.events[0], at) : found;
		// "Fetch Test Event" moves nothing.
		if (!manual) writeBaselines(staticData, new Map(reads.map((read) => [read.listId, read.seen])));
		if (events.length === 0) return null;
		return [events.map((event) => ({ json: eventItem(event, settings.simplify) }))];
	} finally {
		if (!manual && pollsInFlight.get(key) === now) pollsInFlight.delete(key);
	}
}
