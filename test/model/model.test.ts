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
/** Only violations whose code matches (a soak hunting one kind of counterexample); all by default. */
const ONLY = new RegExp(process.env.MODEL_ONLY ?? '.');

jest.setTimeout(Number(process.env.MODEL_TIMEOUT_MS ?? 600_000));

const WARM_UP: Scenario = {
	...fc.sample(scenarioArbitrary, { seed: 0, numRuns: 1 })[0],
	faults: [],
	where: { kind: 'canvas', items: [{ n: 0 }], runs: 1, bulk: false },
};

let fake: FakeApi;
beforeAll(async () => {
	fake = new FakeApi();
	await fake.start();
	// Waits take no real time; a call's timeout of TIMEOUT_S seconds takes a tenth of it.
	clock.timeScale.waits = 0;
	clock.timeScale.timeouts = 0.1;
	// n8n's and the node's modules load on the first execution: not within a call's timeout.
	await runScenario(fake, WARM_UP);
});
afterAll(async () => {
	clock.timeScale.waits = 1;
	clock.timeScale.timeouts = 1;
	await fake?.stop();
});

/** f: each request's timeout, its backoff and, after a 429, its Retry-After (jittered) and wake-up. */
function seamBoundOf(sent: Sent[]): number {
	const perRequest = (x: Sent) =>
		TIMEOUT_S * 1000 + 8_000 + (x.status === 429 ? RETRY_AFTER_S * 1250 + 2_100 : 0);
	return 60_000 + sent.reduce((total, x) => total + perRequest(x), 0);
}

export async function violationsIn(s: Scenario): Promise<string[]> {
	const started = clock.now();
	const { outcomes } = await runScenario(fake, s);
	if (process.env.MODEL_SCENARIO)
		console.log(JSON.stringify({ sent: fake.sent, outcomes }, null, 1));
	const seamMs = clock.now() - started;
	const sent = [...fake.sent];
	for (const fault of new Set(sent.map((x) => x.fault))) met.set(fault, (met.get(fault) ?? 0) + 1);
	if (JSON.stringify(outcomes).includes('Nothing answers at'))
		met.set('refused (seen)', (met.get('refused (seen)') ?? 0) + 1);
	if (JSON.stringify(outcomes).includes('did not answer within'))
		met.set('timeout (seen)', (met.get('timeout (seen)') ?? 0) + 1);
	const found = violationsOf({ s, sent, outcomes, seamMs, seamBoundMs: seamBoundOf(sent) });
	return found.filter((violation) => ONLY.test(violation.split(':')[0]));
}

/** Faults the fake met (scenarios with a request meeting each). */
const met = new Map<string, number>();

/** MODEL_SURVEY=1: no scenario fails; each kind of violation is counted, with its first scenario. */
const kinds = new Map<string, { count: number; first: string }>();
function survey(found: string[], s: Scenario, index: number): void {
	for (const code of new Set(found.map((violation) => violation.split(':')[0]))) {
		const kind = kinds.get(code) ?? {
			count: 0,
			first: `#${index} ${JSON.stringify(s)}\n  ${found.find((v) => v.startsWith(code))}`,
		};
		kinds.set(code, { ...kind, count: kind.count + 1 });
	}
}
const surveyed = () =>
	[...kinds]
		.map(([code, { count, first }]) => `${code}: ${count} scenarios; first ${first}`)
		.join('\n');

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
			fc.asyncProperty(
				process.env.MODEL_SCENARIO
					? fc.constant(JSON.parse(process.env.MODEL_SCENARIO) as Scenario)
					: scenarioArbitrary,
				async (s) => {
					scenarios++;
					const t0 = Date.now();
					const found = await violationsIn(s);
					if (process.env.MODEL_SURVEY) return survey(found, s, scenarios);
					if (process.env.MODEL_PROFILE)
						console.log(
							`${Date.now() - t0} ms ${s.where.kind} ${s.operation} v${s.version} tries ${s.tries} faults ${s.faults.join(',')} sent ${fake.sent.length}`,
						);
					if (found.length) throw new Error(found.join('\n'));
				},
			),
			{ seed: SEED, numRuns: RUNS, endOnFailure: process.env.MODEL_NO_SHRINK === '1' },
		);
	} finally {
		if (process.env.MODEL_SURVEY) console.log(surveyed());
		console.log(
			`Scenarios with a request meeting each fault: ${JSON.stringify(Object.fromEntries(met))}`,
		);
		const seconds = (Date.now() - started) / 1000;
		console.log(
			`${scenarios} scenarios in ${seconds.toFixed(1)} s (${(scenarios / seconds).toFixed(1)} per second)`,
		);
	}
});
