/**
 * The model (test/model/) as the mutation test set runs it: the scenarios of a pinned seed and
 * count (set in stryker.config.mjs), without the coverage test of model.test.ts, and ending at the
 * first violation without shrinking, so a mutant the model catches dies fast.
 */
import fc from 'fast-check';

import { envVar } from '../support/env.cjs';

import { scenarioArbitrary } from '../model/scenario';
import { useModel } from '../model/setup';

const SEED = Number(envVar('MODEL_SEED'));
const RUNS = Number(envVar('MODEL_RUNS'));

jest.setTimeout(600_000);

const model = useModel();

it(`the model's invariants hold: ${RUNS} scenarios from seed ${SEED}`, async () => {
	expect(SEED).toBeGreaterThanOrEqual(0);
	expect(RUNS).toBeGreaterThan(0);
	await fc.assert(
		fc.asyncProperty(scenarioArbitrary, async (s) => {
			const found = await model.violationsIn(s);
			if (found.length) throw new Error(found.join('\n'));
		}),
		{ seed: SEED, numRuns: RUNS, endOnFailure: true },
	);
});
