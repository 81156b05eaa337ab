// The mutation test set (`npm run mutate`): lean, so that each mutant of the paid path is tried in
// seconds. Fast tests first; jest stops at the first failing file (Stryker sets bail).
const base = require('../jest.config.js');

const { TESTS } = require('./tests.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	rootDir: '../..',
	testMatch: TESTS.map((file) => `<rootDir>/${file}`),
	testSequencer: '<rootDir>/test/mutation/sequencer.js',
	// The transport's waits take no real time, as in the model; the pacing tests, which need real
	// waits, are left out.
	setupFiles: [...base.setupFiles, '<rootDir>/test/mutation/fastClock.ts'],
	maxWorkers: 1,
};
