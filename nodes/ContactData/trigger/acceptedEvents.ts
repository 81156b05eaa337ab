/**
 * This process's record of the events it accepted, by subscription: a retried or replayed delivery
 * is answered before any execution starts. Kept as long as a copy can still verify; other
 * processes and restarts are covered by the executions' check (`processedEvents.ts`).
 */
import { WEBHOOKS } from '../shared/client/contract';

const WINDOW_MS = WEBHOOKS.toleranceSeconds * 1000;

/** Ids kept at most, whatever the event rate (about 150 bytes each): about 160 events a second for 5 minutes. */
const ACCEPTED_EVENTS_KEPT = 50_000;

export class AcceptedEvents {
	/** Expiry time by "<subscription> <event id>", oldest acceptance first. */
	private readonly expiries = new Map<string, number>();

	constructor(private readonly capacity: number) {}

	get size(): number {
		return this.expiries.size;
	}

	wasAccepted(subscriptionId: string, eventId: string, nowMs: number): boolean {
		return (this.expiries.get(`${subscriptionId} ${eventId}`) ?? -Infinity) >= nowMs;
	}

	/** Kept until its signed bytes go stale, and a full window after acceptance: retries are signed afresh. */
	accept(subscriptionId: string, eventId: string, signedAtMs: number, nowMs: number): void {
		const key = `${subscriptionId} ${eventId}`;
		this.expiries.delete(key);
		this.expiries.set(key, Math.max(signedAtMs, nowMs) + WINDOW_MS);
		// Expired ids go from the oldest on, then the oldest beyond capacity.
		for (const [kept, expiresAt] of this.expiries) {
			if (expiresAt >= nowMs && this.expiries.size <= this.capacity) break;
			this.expiries.delete(kept);
		}
	}
}

export const acceptedEvents = new AcceptedEvents(ACCEPTED_EVENTS_KEPT);
