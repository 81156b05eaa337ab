/**
 * The sandbox's wall clock: real time plus an offset an admin may set, so that expiries
 * (export URLs, idempotency records) can be reached in tests without waiting.
 */
export class Clock {
	offsetMs = 0;

	now(): number {
		return Date.now() + this.offsetMs;
	}

	iso(): string {
		return new Date(this.now()).toISOString();
	}
}
