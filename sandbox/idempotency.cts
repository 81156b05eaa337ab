/**
 * Idempotency records of one account: an `Idempotency-Key` with the same body (compared as
 * parsed JSON) within 24 hours replays the first 2xx answer; with another body it is a conflict.
 */
import { LIMITS } from '../nodes/ContactData/shared/client/contract';

interface IdempotencyRecord {
	body: string;
	status: number;
	response: unknown;
	at: number;
}

export type IdempotencyLookup =
	| { kind: 'new' }
	| { kind: 'replay'; status: number; response: unknown }
	| { kind: 'conflict' };

export class IdempotencyStore {
	private readonly records = new Map<string, IdempotencyRecord>();

	/** `scope` keeps keys of different endpoints apart; `body` is the canonical JSON body. */
	lookup(scope: string, key: string, body: string, now: number): IdempotencyLookup {
		const record = this.records.get(`${scope} ${key}`);
		if (!record || now - record.at >= LIMITS.idempotencyWindowMs) return { kind: 'new' };
		if (record.body !== body) return { kind: 'conflict' };
		return { kind: 'replay', status: record.status, response: record.response };
	}

	remember(
		scope: string,
		key: string,
		body: string,
		status: number,
		response: unknown,
		now: number,
	): void {
		if (status < 200 || status > 299) return;
		this.records.set(`${scope} ${key}`, { body, status, response, at: now });
		// Forget expired records now and then, so a long run does not keep them all.
		if (this.records.size % 1_000 === 0) {
			for (const [id, record] of this.records) {
				if (now - record.at >= LIMITS.idempotencyWindowMs) this.records.delete(id);
			}
		}
	}
}
