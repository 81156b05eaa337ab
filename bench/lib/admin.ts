/** The sandbox's admin routes (/_sandbox/*), as the bench reads them: stats, balance, settings. */
import { request } from 'undici';

export interface KeyStats {
	requests: Record<string, number>;
	http_429: number;
	credits_charged: number;
	balance: number;
}

export interface SandboxStats {
	keys: Record<string, KeyStats>;
	requests_total: number;
}

export class SandboxAdmin {
	constructor(readonly url: string) {}

	private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
		const response = await request(`${this.url}/_sandbox/${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.body.text();
		if (response.statusCode >= 300) {
			throw new Error(`${method} /_sandbox/${path} answered ${response.statusCode}: ${text.slice(0, 500)}`);
		}
		return JSON.parse(text) as T;
	}

	reset(): Promise<unknown> {
		return this.call('POST', 'reset', {});
	}

	setBalance(key: string, balance: number): Promise<unknown> {
		return this.call('POST', 'balance', { key, balance });
	}

	stats(): Promise<SandboxStats> {
		return this.call('GET', 'stats');
	}

	setSettings(settings: { time_scale?: number; rate_limits?: boolean }): Promise<unknown> {
		return this.call('POST', 'settings', settings);
	}

	/** The figures of one key, zero when it made no request. */
	async keyStats(key: string): Promise<KeyStats> {
		const stats = await this.stats();
		return stats.keys[key] ?? { requests: {}, http_429: 0, credits_charged: 0, balance: 0 };
	}
}

/** Requests of one route ("POST /v1/unlock"), 429s included. */
export function requestsOf(stats: KeyStats, route: string): number {
	return stats.requests[route] ?? 0;
}
