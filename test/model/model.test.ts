/**
 * A model of the Contact Data API (issue 37): the node, in n8n's engine, against a fake API that
 * charges as the contract says and fails as each scenario draws, on the canvas and as a tool. Every
 * scenario is checked against invariants a–f (test/model/invariants.ts). `npm test` runs a fixed
 * seed; `npm run soak [N]` a random one (MODEL_SEED, MODEL_RUNS).
 */
import fc from 'fast-check';

import * as clock from '../../nodes/ContactData/shared/client/clock';
import { coverageTable, EXPECTED_LABELS, labelsOf } from './coverage';
import { runScenario, TIMEOUT_S } from './driver';
import { FakeApi, RETRY_AFTER_S, type Sent } from './fakeApi';
import { violationsOf } from './invariants';
import { scenarioArbitrary, type Scenario } from './scenario';

const SEED = Number(process.env.MODEL_SEED ?? 37);
const RUNS = Number(process.env.MODEL_RUNS ?? 1_000);

jest.setTimeout(Number(process.env.MODEL_TIMEOUT_MS ?? 600_000));

let fake: FakeApi;
beforeAll(async () => {
	fake = new FakeApi();
	await fake.start();
	// Waits take no real time; a call's timeout of TIMEOUT_S seconds takes a twentieth of it.
	clock.timeScale.waits = 0;
	clock.timeScale.timeouts = 0.05;
});
afterAll(async () => {
	clock.timeScale.waits = 1;
	clock.timeScale.timeouts = 1;
	await fake?.stop();
});

/** f: each request's timeout, its backoff and, after a 429, its Retry-After (jittered) and wake-up. */
function seamBoundOf(sent: Sent[]): number {
	const perRequest = (x: Sent) => TIMEOUT_S * 1000 + 8_000 + (x.status === 429 ? RETRY_AFTER_S * 1250 + 2_100 : 0);
	return 60_000 + sent.reduce((total, x) => total + perRequest(x), 0);
}

export async function violationsIn(s: Scenario): Promise<string[]> {
	const started = clock.now();
	const { outcomes } = await runScenario(fake, s);
	const seamMs = clock.now() - started;
	const sent = [...fake.sent];
	return violationsOf({ s, sent, outcomes, seamMs, seamBoundMs: seamBoundOf(sent) });
}

it(`fixed seed ${SEED}: the scenarios show every fault and every dimension`, () => {
	const counts = new Map<string, number>();
	for (const s of fc.sample(scenarioArbitrary, { seed: SEED, numRuns: RUNS }))
		for (const label of labelsOf(s)) counts.set(label, (counts.get(label) ?? 0) + 1);
	console.log(`Scenarios of seed ${SEED} (${RUNS}):\n${coverageTable(counts, RUNS)}`);
	expect(EXPECTED_LABELS.filter((label) => !counts.has(label))).toEqual([]);
});

it(`money told true by every fault sequence: ${RUNS} scenarios from seed ${SEED}`, async () => {
	const started = Date.now();
	let scenarios = 0;
	try {
		await fc.assert(
			fc.asyncProperty(scenarioArbitrary, async (s) => {
				scenarios++;
				const found = await violationsIn(s);
				if (found.length) throw new Error(found.join('\n'));
			}),
			{ seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: Number(process.env.MODEL_SHRINK_MS ?? 300_000) },
		);
	} finally {
		const seconds = (Date.now() - started) / 1000;
		console.log(`${scenarios} scenarios in ${seconds.toFixed(1)} s (${(scenarios / seconds).toFixed(1)} per second)`);
	}
});
