/**
 * Per-key rate limits over a rolling window: each class keeps the times of its counted calls.
 * The window lasts a minute divided by the sandbox's time scale; with a scale other than 1 the
 * headers give real seconds with up to three decimals.
 */
import {
	HEADERS,
	RATE_LIMITS,
	RATE_LIMIT_WINDOW_MS,
	type RateLimitClass,
} from '../nodes/ContactData/shared/client/contract';

export interface RateSettings {
	timeScale: number;
	enabled: boolean;
}

export type RateDecision =
	| { allowed: true; headers: Record<string, string> }
	| { allowed: false; headers: Record<string, string>; retryAfter: string };

/** Seconds as the headers give them: whole seconds at scale 1, else milliseconds precision. */
export function formatSeconds(ms: number, timeScale: number): string {
	// Float noise (6000.0000001 ms) must not round up to another millisecond or second.
	const clamped = Math.max(0, ms - 1e-6);
	if (timeScale === 1) return String(Math.ceil(clamped / 1000));
	return String(Math.ceil(clamped) / 1000);
}

class Window {
	private readonly times: number[] = [];
	private head = 0;

	prune(now: number, windowMs: number): void {
		while (this.head < this.times.length && this.times[this.head] <= now - windowMs) this.head++;
		if (this.head > 1024 && this.head * 2 > this.times.length) {
			this.times.splice(0, this.head);
			this.head = 0;
		}
	}

	get count(): number {
		return this.times.length - this.head;
	}

	get oldest(): number | undefined {
		return this.count > 0 ? this.times[this.head] : undefined;
	}

	add(now: number): void {
		this.times.push(now);
	}
}

export class RateLimiter {
	private readonly windows = new Map<RateLimitClass, Window>();

	/** Counts a call of a class, or refuses it (a refused call is not counted). */
	take(rateClass: RateLimitClass, settings: RateSettings, now = performance.now()): RateDecision {
		const limit = RATE_LIMITS[rateClass];
		if (!settings.enabled) {
			return { allowed: true, headers: this.headers(limit, limit, 0, settings.timeScale) };
		}
		const windowMs = RATE_LIMIT_WINDOW_MS / settings.timeScale;
		let window = this.windows.get(rateClass);
		if (!window) {
			window = new Window();
			this.windows.set(rateClass, window);
		}
		window.prune(now, windowMs);
		if (window.count >= limit) {
			const wait = windowMs - (now - (window.oldest ?? now));
			const retryAfter = formatSeconds(wait, settings.timeScale);
			return {
				allowed: false,
				retryAfter,
				headers: {
					...this.headers(limit, 0, wait, settings.timeScale),
					[HEADERS.retryAfter]: retryAfter,
				},
			};
		}
		window.add(now);
		const reset = windowMs - (now - (window.oldest ?? now));
		return {
			allowed: true,
			headers: this.headers(limit, limit - window.count, reset, settings.timeScale),
		};
	}

	private headers(
		limit: number,
		remaining: number,
		resetMs: number,
		timeScale: number,
	): Record<string, string> {
		return {
			[HEADERS.rateLimitLimit]: String(limit),
			[HEADERS.rateLimitRemaining]: String(remaining),
			[HEADERS.rateLimitReset]: formatSeconds(resetMs, timeScale),
		};
	}
}
