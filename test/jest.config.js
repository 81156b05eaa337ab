/** @type {import('jest').Config} */
module.exports = {
	rootDir: '..',
	testEnvironment: 'node',
	// Transpile only; `npm run typecheck` type-checks the whole tree once.
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json', diagnostics: false }],
	},
	moduleFileExtensions: ['ts', 'cts', 'js', 'cjs', 'json'],
	resolver: '<rootDir>/test/resolve-tools.js',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	setupFiles: ['<rootDir>/test/setup-env.js'],
	// Tests run against real servers on loopback; a slow shared machine needs room.
	testTimeout: 120_000,
	maxWorkers: 2,
	// `npm test` (scripts/test.sh): no per-file "PASS" lines, every failure listed however few files ran.
	...(process.env.JEST_SUMMARY_ONLY ? { reporters: [['summary', { summaryThreshold: 0 }]] } : {}),
};
