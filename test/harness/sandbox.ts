/**
 * The sandbox for tests: started in-process on a free port with defaults suited to tests, plus a
 * small client for its admin routes (`/_sandbox/...`).
 */
import { request } from 'undici';

import type { WebhookEvent } from '../../nodes/ContactData/shared/client/contract';

import { KEYS } from '../../sandbox/accounts.cjs';
import type { FaultRule } from '../../sandbox/faults.cjs';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/server.cjs';
import type { DeliveryRecord } from '../../sandbox/deliveries.cjs';

export { KEYS };
export type { FaultRule, RunningSandbox, SandboxOptions };

export interface SandboxSettingsBody {
	time_scale?: number;
	rate_limits?: boolean;
	webhook_retry_delays_ms?: number[];
	/** Moves the sandbox's clock (expiry of export URLs and idempotency records). */
	clock_offset_s?: number;
	/** Answers as a later API version might give them: new enum values, new fields, keys reordered. */
	future_api?: boolean;
}

/** One delivery attempt in `GET /_sandbox/deliveries`. */
export type DeliveryLogEntry = DeliveryRecord;

export interface SandboxStats {
	keys: Record<
		string,
		{
			requests: Record<string, number>;
			/** When each route was first and last called (ISO times). */
			request_spans: Record<string, { first_at: string; last_at: string }>;
			http_429: number;
			/** Charging calls answered from an earlier call with the same Idempotency-Key and body. */
			idempotent_replays: number;
			credits_charged: number;
			balance: number;
		}
	>;
	requests_total: number;
}

export interface SandboxAdmin {
	reset(): Promise<void>;
	setBalance(key: string, balance: number): Promise<void>;
	settings(): Promise<Required<SandboxSettingsBody>>;
	setSettings(settings: SandboxSettingsBody): Promise<Required<SandboxSettingsBody>>;
	setFaults(rules: FaultRule[]): Promise<void>;
	clearFaults(): Promise<void>;
	emitEvents(body: {
		type: 'job_change' | 'role_change' | 'intent';
		list_id: string;
		count?: number;
		key?: string;
	}): Promise<{ events: WebhookEvent[] }>;
	stats(): Promise<SandboxStats>;
	deliveries(): Promise<DeliveryLogEntry[]>;
}

export function sandboxAdmin(url: string): SandboxAdmin {
	async function call<T>(
		method: 'GET' | 'POST' | 'DELETE',
		path: string,
		body?: unknown,
	): Promise<T> {
		const response = await request(`${url}/_sandbox/${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.body.text();
		if (response.statusCode !== 200) {
			throw new Error(`sandbox admin ${method} ${path}: ${response.statusCode} ${text}`);
		}
		return JSON.parse(text) as T;
	}
	return {
		reset: async () => {
			await call('POST', 'reset');
		},
		setBalance: async (key, balance) => {
			await call('POST', 'balance', { key, balance });
		},
		settings: () => call('GET', 'settings'),
		setSettings: (settings) => call('POST', 'settings', settings),
		setFaults: async (rules) => {
			await call('POST', 'faults', { rules });
		},
		clearFaults: async () => {
			await call('DELETE', 'faults');
		},
		emitEvents: (body) => call('POST', 'events', body),
		stats: () => call('GET', 'stats'),
		deliveries: async () =>
			(await call<{ deliveries: DeliveryLogEntry[] }>('GET', 'deliveries')).deliveries,
	};
}

/**
 * Test defaults: a free port, 1,000 contacts, a minute lasting one second. A test that needs volume
 * (a list over 100,000, many pages) asks for it with `contacts`.
 */
export const TEST_SANDBOX_DEFAULTS: SandboxOptions = { port: 0, contacts: 1_000, timeScale: 60 };

export async function startTestSandbox(
	options: SandboxOptions = {},
): Promise<RunningSandbox & { admin: SandboxAdmin }> {
	const sandbox = await startSandbox({ ...TEST_SANDBOX_DEFAULTS, ...options });
	return { ...sandbox, admin: sandboxAdmin(sandbox.url) };
}

export type TestSandbox = Awaited<ReturnType<typeof startTestSandbox>>;
