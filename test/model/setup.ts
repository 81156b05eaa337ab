/**
 * The model's set-up for a test file: the fake API on loopback, the transport's waits at no real
 * time (the clock seam), and one scenario run and checked against the invariants.
 */
import * as clock from '../../nodes/ContactData/shared/client/clock';
import { envVar } from '../support/env.cjs';
import { report } from '../support/report.cjs';
import { runScenario, TIMEOUT_S } from './driver';
import { FakeApi, RETRY_AFTER_S, type Sent } from './fakeApi';
import { happenedIn } from './coverage';
import { violationsOf } from './invariants';
import { PLAIN, type Scenario } from './scenario';

/** f: each request's timeout, its backoff and, after a 429, its Retry-After (jittered) and wake-up. */
function seamBoundOf(sent: Sent[]): number {
	const perRequest = (x: Sent) =>
		TIMEOUT_S * 1000 + 8_000 + (x.status === 429 ? RETRY_AFTER_S * 1250 + 2_100 : 0);
	return 60_000 + sent.reduce((total, x) => total + perRequest(x), 0);
}

export interface Model {
	/** Runs `s` and gives the invariants' violations (none: it holds). */
	violationsIn(s: Scenario): Promise<string[]>;
	/** Scenarios in which each kind happened (coverage.ts). */
	met: Map<string, number>;
}

export function useModel(): Model {
	let fake: FakeApi;
	const met = new Map<string, number>();
	const count = (what: string) => met.set(what, (met.get(what) ?? 0) + 1);
	beforeAll(async () => {
		fake = new FakeApi();
		await fake.start();
		// Waits take no real time; a call's timeout of TIMEOUT_S seconds takes a tenth of it.
		clock.timeScale.waits = 0;
		clock.timeScale.timeouts = 0.1;
		// n8n's and the node's modules load on the first execution: not within a call's timeout.
		await runScenario(fake, {
			...PLAIN,
			where: { kind: 'canvas', items: [{ n: 0 }], runs: 1, bulk: false },
		});
	});
	afterAll(async () => {
		clock.timeScale.waits = 1;
		clock.timeScale.timeouts = 1;
		await fake?.stop();
	});
	async function violationsIn(s: Scenario): Promise<string[]> {
		const started = clock.now();
		const { outcomes, runs } = await runScenario(fake, s);
		const seamMs = clock.now() - started - fake.movedMs;
		if (envVar('MODEL_SCENARIO'))
			report(JSON.stringify({ sent: fake.sent, outcomes, runs }, null, 1));
		const sent = [...fake.sent];
		const checked = { s, sent, outcomes, runs, seamMs, seamBoundMs: seamBoundOf(sent) };
		for (const kind of happenedIn(checked)) count(kind);
		return violationsOf(checked);
	}
	return { violationsIn, met };
}
