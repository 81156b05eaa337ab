// Mutation testing of the paid path (`npm run mutate`, outside `npm test`): StrykerJS changes the
// credit policy and the two charging operations one small edit at a time, and the lean test set of
// jest.config.js must fail on each. Run from the repository root; Stryker's own flags pass through
// (`npm run mutate -- --mutate nodes/ContactData/shared/budget/ledger.ts`).

import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The model's scenarios, pinned: the same mutants die by the same scenarios on every run.
process.env.MODEL_SEED = '37';
process.env.MODEL_RUNS = '100';
process.env.MODEL_NO_SHRINK = '1';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	mutate: [
		'nodes/ContactData/shared/budget/*.ts',
		'nodes/ContactData/resources/contact/unlock.ts',
		'nodes/ContactData/resources/contact/enrich.ts',
	],
	testRunner: 'jest',
	// Every listed file runs in the initial run: jest's related-tests search misses the engine tests.
	jest: {
		projectType: 'custom',
		configFile: 'test/mutation/jest.config.js',
		enableFindRelatedTests: false,
	},
	coverageAnalysis: 'perTest',
	// Mutants in module-level constants run for every test; the tests that load them still judge them
	// through their uses in functions.
	ignoreStatic: true,
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.json',
	concurrency: 2,
	// A mutant's time limit: 1.5 times its tests' time in the initial run, plus 2 minutes. Stryker
	// counts a timed-out mutant as killed: at a load average of 20 a 10 s margin timed out 169 of
	// ledger.ts's 185 valid mutants, a score that says nothing. A mutant that loops costs 2 minutes.
	timeoutMS: 120_000,
	reporters: ['progress', 'clear-text', 'html', 'json'],
	// MUTATION_REPORT names a run's own reports, so that runs on different files can go at once.
	htmlReporter: { fileName: `${process.env.MUTATION_REPORT ?? 'reports/mutation/mutation'}.html` },
	jsonReporter: { fileName: `${process.env.MUTATION_REPORT ?? 'reports/mutation/mutation'}.json` },
	// Outside the repository: a sandbox copy inside it fails `n8n-node lint` while a run goes on.
	tempDirName: join(tmpdir(), 'contact-data-stryker'),
	ignorePatterns: ['build', 'dist', 'coverage', 'reports', 'bench/tmp', '.n8n-test', '*.tgz'],
	cleanTempDir: 'always',
};
