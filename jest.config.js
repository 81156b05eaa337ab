/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	// Transpile only; `npm run typecheck` type-checks the whole tree once.
	transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
	roots: ['<rootDir>/test'],
	// The sandbox reads the contract from the built package; tests read the package's source.
	moduleNameMapper: { '^n8n-nodes-contact-data/dist/(.*)$': '<rootDir>/n8n-nodes-contact-data/$1' },
	testMatch: ['**/*.test.ts'],
	setupFiles: ['<rootDir>/test/setup-env.js'],
	// Tests run against real servers on loopback; a slow shared machine needs room.
	testTimeout: 120_000,
	maxWorkers: 2,
};
