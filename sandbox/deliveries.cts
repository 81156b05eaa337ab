/**
 * Delivery of signed webhook events, with retries. Deliveries follow the Standard Webhooks scheme
 * (contract.webhookSignature); a delivery without a 2xx within 10 seconds is retried with the same
 * event id after each configured delay, and every attempt is logged.
 */
import { Agent, request } from 'undici';
import { HEADERS, WEBHOOKS, webhookSignature } from '../nodes/ContactData/shared/client/contract';
import type { Subscription } from './webhooks.cjs';

/** Delivery attempts kept for `GET /_sandbox/deliveries` (the oldest are dropped past it). */
const DELIVERY_LOG_MAX = 100_000;

/** Delays before each retry: five attempts over about a minute. */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 10_000, 15_000, 30_000];

export interface DeliveryRecord {
	event_id: string;
	webhook_id: string;
	url: string;
	attempt: number;
	status: number | null;
	ok: boolean;
	at: string;
	error?: string;
}

export class Deliverer {
	private log: DeliveryRecord[] = [];
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly inFlight = new Set<AbortController>();
	private readonly agent = new Agent({
		keepAliveTimeout: 1_000,
		connect: { timeout: WEBHOOKS.deliveryTimeoutMs },
	});
	private generation = 0;

	constructor(
		private readonly retryDelays: () => number[],
		private readonly now: () => number,
	) {}

	deliveries(): DeliveryRecord[] {
		return this.log;
	}

	/** Sends an event to a subscription now, retrying on failure. */
	deliver(event: { id: string }, subscription: Subscription): void {
		const body = JSON.stringify(event);
		void this.attempt(event.id, body, subscription, 1, this.generation);
	}

	private async attempt(
		eventId: string,
		body: string,
		subscription: Subscription,
		attempt: number,
		generation: number,
	): Promise<void> {
		if (generation !== this.generation) return;
		const timestamp = Math.floor(this.now() / 1000);
		const controller = new AbortController();
		const timeout = setTimeout(() => controller.abort(), WEBHOOKS.deliveryTimeoutMs);
		this.inFlight.add(controller);
		let status: number | null = null;
		let error: string | undefined;
		try {
			const response = await request(subscription.url, {
				method: 'POST',
				dispatcher: this.agent,
				signal: controller.signal,
				headers: {
					'content-type': 'application/json',
					'user-agent': 'contact-data-sandbox-webhooks/1',
					[HEADERS.webhookId]: eventId,
					[HEADERS.webhookTimestamp]: String(timestamp),
					[HEADERS.webhookSignature]: webhookSignature(
						subscription.secret,
						eventId,
						timestamp,
						body,
					),
				},
				body,
			});
			status = response.statusCode;
			await response.body.dump();
		} catch (caught) {
			error = caught instanceof Error ? caught.message : String(caught);
		} finally {
			clearTimeout(timeout);
			this.inFlight.delete(controller);
		}
		if (generation !== this.generation) return;
		const ok = status !== null && status >= 200 && status <= 299;
		this.log.push({
			event_id: eventId,
			webhook_id: subscription.id,
			url: subscription.url,
			attempt,
			status,
			ok,
			at: new Date(this.now()).toISOString(),
			...(error ? { error } : {}),
		});
		if (this.log.length > DELIVERY_LOG_MAX) this.log.splice(0, this.log.length - DELIVERY_LOG_MAX);
		const delays = this.retryDelays();
		if (ok || attempt > delays.length) return;
		const timer = setTimeout(
			() => {
				this.timers.delete(timer);
				void this.attempt(eventId, body, subscription, attempt + 1, generation);
			},
			delays[attempt - 1],
		);
		this.timers.add(timer);
	}

	/** Cancels pending retries and in-flight deliveries, and forgets the log. */
	reset(): void {
		this.generation++;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const controller of this.inFlight) controller.abort();
		this.inFlight.clear();
		this.log = [];
	}

	async close(): Promise<void> {
		this.reset();
		await this.agent.destroy();
	}
}
