/**
 * A model of the Contact Data API (issue 37): the node, in n8n's engine, against a fake API that
 * charges as the contract says and fails as each scenario draws, on the canvas and as a tool. Every
 * scenario is checked against invariants a–f (test/model/invariants.ts). `npm test` runs a fixed
 * seed; `npm run soak [N]` a random one (MODEL_SEED, MODEL_RUNS).
 */
import fc from 'fast-check';

import { envVar } from '../support/env.cjs';
import { report } from '../support/report.cjs';

import { ALL_KINDS, coverageTable } from './coverage';
import { scenarioArbitrary, type Scenario } from './scenario';
import { useModel } from './setup';

const SEED = Number(envVar('MODEL_SEED') ?? 37);
const RUNS = Number(envVar('MODEL_RUNS') ?? 1_000);
/** Only violations that match (a soak hunting one kind: "^c-hidden", "^c-over: r1"); all by default. */
const ONLY = new RegExp(envVar('MODEL_ONLY') ?? '.');

/** One scenario (JSON) to run alone, its requests and outcomes printed. */
const ONE = envVar('MODEL_SCENARIO');

jest.setTimeout(Number(envVar('MODEL_TIMEOUT_MS') ?? 600_000));

const model = useModel();
const { met } = model;

async function violationsIn(s: Scenario): Promise<string[]> {
	const found = await model.violationsIn(s);
	return found.filter((violation) => ONLY.test(violation));
}

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

it(`money told true by every fault sequence: ${RUNS} scenarios from seed ${SEED}`, async () => {
	const started = Date.now();
	let scenarios = 0;
	try {
		await fc.assert(
			fc.asyncProperty(
				ONE ? fc.constant(JSON.parse(ONE) as Scenario) : scenarioArbitrary,
				async (s) => {
					scenarios++;
					const found = await violationsIn(s);
					if (envVar('MODEL_SURVEY')) return survey(found, s, scenarios);
					if (found.length) throw new Error(found.join('\n'));
				},
			),
			{ seed: SEED, numRuns: RUNS, endOnFailure: envVar('MODEL_NO_SHRINK') === '1' },
		);
	} finally {
		if (envVar('MODEL_SURVEY')) report(surveyed());
		const seconds = (Date.now() - started) / 1000;
		report(
			`${scenarios} scenarios in ${seconds.toFixed(1)} s (${(scenarios / seconds).toFixed(1)} per second)`,
		);
	}
});

it(`seed ${SEED}: every fault took effect, every outcome and door happened, each in 1% of scenarios`, () => {
	report(`What happened in the scenarios of seed ${SEED} (${RUNS}):\n${coverageTable(met, RUNS)}`);
	if (ONE) return;
	const rare = ALL_KINDS.filter((kind) => (met.get(kind) ?? 0) < RUNS / 100);
	expect(rare).toEqual([]);
});
