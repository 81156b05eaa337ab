/**
 * One execution per event, across processes and restarts: the trigger's `execute()` starts every
 * execution, wherever it runs, and drops an event id n8n's database already holds (only executions
 * get `checkProcessedAndRecord`, so the webhook call cannot).
 */
import { sleep, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { eventIdOfItem } from '../shared/items/eventItem';

/**
 * Event ids kept in the database per trigger node (about 25 bytes each, in one row n8n rewrites
 * per event): the last 10,000 events cover the 5-minute signature window up to 30 events a second.
 */
const PROCESSED_EVENTS_KEPT = 10_000;

/** Checks after recording, a pause apart, that the record still holds the new ids. */
const RECORD_CHECKS = 5;
const RECORD_CHECK_PAUSE_MS = 100;
/** Attempts at the database call (two executions recording the first ids at once collide). */
const RECORD_ATTEMPTS = 3;

/** The ids seen for the first time, or `undefined` when the database could not be used. */
async function checkAndRecord(
	this: IExecuteFunctions,
	eventIds: string[],
): Promise<Set<string> | undefined> {
	for (let attempt = 1; attempt <= RECORD_ATTEMPTS; attempt++) {
		try {
			const checked = await this.helpers.checkProcessedAndRecord(eventIds, 'node', {
				mode: 'entries',
				maxEntries: PROCESSED_EVENTS_KEPT,
			});
			return new Set(checked.new.map(String));
		} catch (error) {
			this.logger.warn(
				`Contact Data Trigger: could not record event ids yet (${(error as Error).message})`,
			);
			await sleep(RECORD_CHECK_PAUSE_MS * attempt);
		}
	}
	return undefined;
}

/**
 * Records the ids and returns those seen for the first time. n8n rewrites the whole record without
 * a lock, so an execution recording at the same moment can drop ours: checking again a moment
 * later finds such a loss and writes the ids back.
 */
async function recordFirstSeen(
	this: IExecuteFunctions,
	eventIds: string[],
): Promise<Set<string> | undefined> {
	const firstSeen = await checkAndRecord.call(this, eventIds);
	let lost = [...(firstSeen ?? [])];
	for (let check = 0; check < RECORD_CHECKS && lost.length > 0; check++) {
		// Jittered, so executions recording together do not check (and write) together again.
		await sleep(RECORD_CHECK_PAUSE_MS * (0.5 + Math.random()));
		lost = [...((await checkAndRecord.call(this, lost)) ?? [])];
	}
	return firstSeen;
}

/**
 * The items whose event no execution passed on before; only production deliveries are checked.
 * When the database cannot be used, the events go on: a duplicate costs less than a lost event.
 */
export async function firstDeliveries(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	simplify: boolean,
): Promise<INodeExecutionData[]> {
	const eventIds = items.map((item) => eventIdOfItem(item.json, simplify));
	const known = eventIds.filter((id): id is string => id !== undefined);
	const checks =
		this.getMode() === 'webhook' && typeof this.helpers.checkProcessedAndRecord === 'function';
	const firstSeen =
		checks && known.length > 0 ? await recordFirstSeen.call(this, known) : undefined;
	return items.flatMap((item, index) => {
		const id = eventIds[index];
		const passed = firstSeen === undefined || id === undefined || firstSeen.has(id);
		return passed ? [{ ...item, pairedItem: { item: index } }] : [];
	});
}
