/**
 * Sandbox events: job changes, role changes and intent signals happening to members of a saved
 * list. A change is written into the data set (later reads agree), then the event is delivered
 * to every matching subscription of the account.
 */
import { randomBytes } from 'node:crypto';
import { ID_PREFIXES, LIMITS, type EventType } from '../nodes/ContactData/shared/client/contract';
import type { Account } from './accounts.cjs';
import type { SavedList } from './lists.cjs';
import { contactRecord, jobOf } from './records.cjs';
import type { SandboxState } from './state.cjs';
import { INTENT_TOPICS } from './vocab.cjs';

/** Up to `count` members of a list, continuing where the previous event left off (wrapping once). */
function nextMembers(
	state: SandboxState,
	account: Account,
	list: SavedList,
	count: number,
): number[] {
	const picked: number[] = [];
	let position = list.eventPosition;
	for (let pass = 0; pass < 2 && picked.length < count; pass++) {
		position = account.lists.members(
			state.ds,
			list,
			pass === 0 ? position : 0,
			count - picked.length,
			picked,
		);
		if (position >= state.ds.size) position = 0;
	}
	list.eventPosition = position;
	return [...new Set(picked)];
}

export function makeEvents(
	state: SandboxState,
	account: Account,
	list: SavedList,
	type: EventType,
	count: number,
): Array<Record<string, unknown>> {
	const { ds } = state;
	const events: Array<Record<string, unknown>> = [];
	for (const index of nextMembers(state, account, list, count)) {
		const now = new Date(state.clock.now());
		const event: Record<string, unknown> = {
			id: ID_PREFIXES.event + randomBytes(12).toString('hex'),
			type,
			created_at: now.toISOString(),
			list_id: list.id,
		};
		if (type === 'intent') {
			const topic = INTENT_TOPICS[Math.floor(state.eventRandom() * INTENT_TOPICS.length)];
			const score =
				LIMITS.intentScoreMin +
				Math.floor(state.eventRandom() * (LIMITS.intentScoreMax - LIMITS.intentScoreMin + 1));
			event.contact = contactRecord(ds, index, account.ledger.holding(index));
			event.intent = { topic, score };
		} else {
			const previous = jobOf(ds, index);
			if (type === 'job_change') ds.changeJob(index, state.eventRandom, now);
			else ds.changeRole(index, state.eventRandom, now);
			event.contact = contactRecord(ds, index, account.ledger.holding(index));
			event.changes = { previous, current: jobOf(ds, index) };
		}
		events.push(event);
		for (const subscription of account.webhooks.matching(type, list.id)) {
			state.deliverer.deliver(event as { id: string }, subscription);
		}
	}
	return events;
}
