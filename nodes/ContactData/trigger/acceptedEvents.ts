/**
 * This process's memory of the events it accepted, by subscription: the fast answer to a retried
 * or replayed delivery, before any execution starts. Kept by time, not by count: an id is known
 * for as long as a copy of its delivery can still verify, whatever number of events came since.
 * Executions check the database as well (see `processedEvents.ts`), so other n8n processes and
 * restarts are covered there; this record only saves them an execution.
 */
import { WEBHOOKS } from '../shared/client/contract';

const WINDOW_MS = WEBHOOKS.toleranceSeconds * 1000;

/** Ids kept at most, whatever the event rate (about 150 bytes each): about 160 events a second for 5 minutes. */
export const ACCEPTED_EVENTS_KEPT = 50_000;

export class AcceptedEvents {
	/** Expiry time by "<subscription> <event id>", oldest acceptance first. */
	private readonly expiries = new Map<string, number>();

	constructor(private readonly capacity: number) {}

	get size(): number {
		return this.expiries.size;
	}

	wasAccepted(subscriptionId: string, eventId: string, nowMs: number): boolean {
		const expiresAt = this.expiries.get(`${subscriptionId} ${eventId}`);
		return expiresAt !== undefined && expiresAt >= nowMs;
	}

	/**
	 * Remembers an accepted event until its own signed bytes go stale (signed time plus the
	 * tolerance) and for at least a full window after acceptance, which covers the service's
	 * retries: those are signed afresh and come within about a minute.
	 */
	accept(subscriptionId: string, eventId: string, signedAtMs: number, nowMs: number): void {
		const key = `${subscriptionId} ${eventId}`;
		this.expiries.delete(key);
		this.expiries.set(key, Math.max(signedAtMs, nowMs) + WINDOW_MS);
		this.forgetExpired(nowMs);
	}

	/** Drops expired ids from the oldest on, then the oldest beyond capacity. */
	private forgetExpired(nowMs: number): void {
		for (const [key, expiresAt] of this.expiries) {
			if (expiresAt >= nowMs && this.expiries.size <= this.capacity) break;
			this.expiries.delete(key);
		}
	}
}

/** The record of this n8n process (module state lives as long as the process). */
export const acceptedEvents = new AcceptedEvents(ACCEPTED_EVENTS_KEPT);
