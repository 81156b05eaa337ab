/**
 * Everything a running sandbox holds: the data set (kept across resets) and the state that a
 * reset clears (accounts, faults, deliveries, export URLs, stats, events' changes to contacts).
 */
import { createAccounts, type Account } from './accounts.cjs';
import { Clock } from './clock.cjs';
import { tablesOf } from './csv.cjs';
import { Dataset } from './data.cjs';
import { seededRandom } from './random.cjs';
import { ExportUrls } from './exportUrls.cjs';
import { Faults } from './faults.cjs';
import { MatchCounter } from './search.cjs';
import { Deliverer } from './deliveries.cjs';
import { vocabularyIndexes } from './wordIndex.cjs';

export interface SandboxSettings {
	/** A minute of rate limit lasts 60 / timeScale seconds. */
	timeScale: number;
	/** false: no 429s (headers are still sent). */
	rateLimits: boolean;
	/** Delays before each retry of a failed webhook delivery. */
	webhookRetryDelaysMs: number[];
	/** Answers as a later API version might give them (futureApi.ts). */
	futureApi?: boolean;
}

export class SandboxState {
	readonly ds: Dataset;
	readonly counter: MatchCounter;
	readonly clock = new Clock();
	readonly settings: SandboxSettings;
	accounts: Map<string, Account> = createAccounts();
	readonly faults: Faults;
	readonly deliverer: Deliverer;
	readonly exportUrls = new ExportUrls();
	requestsTotal = 0;
	/** Randomness of sandbox events (which company, which topic). */
	eventRandom: () => number;

	constructor(
		contacts: number,
		readonly seed: number,
		settings: SandboxSettings,
	) {
		this.ds = new Dataset(contacts, seed);
		// Built now, so that no request pays for them (each takes tens of milliseconds on a million contacts).
		vocabularyIndexes(this.ds);
		tablesOf(this.ds);
		this.counter = new MatchCounter(this.ds);
		this.settings = { ...settings, webhookRetryDelaysMs: [...settings.webhookRetryDelaysMs] };
		this.faults = new Faults(seed);
		this.deliverer = new Deliverer(
			() => this.settings.webhookRetryDelaysMs,
			() => this.clock.now(),
		);
		this.eventRandom = seededRandom(seed ^ 0xe7e7);
	}

	/**
	 * Back to the state at start; the data set stays (events' changes to contacts are undone) and so
	 * do the settings (time scale, rate limits, retry delays), except the clock offset.
	 */
	reset(): void {
		this.accounts = createAccounts();
		this.faults.clear();
		this.deliverer.reset();
		this.exportUrls.clear();
		this.requestsTotal = 0;
		this.ds.restore();
		this.clock.offsetMs = 0;
		this.eventRandom = seededRandom(this.seed ^ 0xe7e7);
	}
}
