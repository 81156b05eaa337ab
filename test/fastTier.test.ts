/**
 * `npm run test:fast`: the tests listed in test/fastTier.js, where the sandbox's server and n8n-core
 * are refused, so a test that needs either fails there instead of slowing the tier down.
 */
import { readRepoFile, readRepoJson } from './support/files.cjs';
import { FAST_TESTS, fastTierGuard, resolvedInFastTier } from './support/tiers.cjs';

it('is the script test:fast, and lists existing test files once each, sorted', () => {
	const { scripts } = readRepoJson<{ scripts: Record<string, string> }>('package.json');
	expect(scripts['test:fast']).toBe('jest -c test/jest.fast.config.js');
	expect(FAST_TESTS.length).toBeGreaterThan(5);
	expect([...new Set(FAST_TESTS)].sort()).toEqual(FAST_TESTS);
	for (const file of FAST_TESTS) {
		expect(file).toMatch(/^test\/.+\.test\.ts$/);
		expect(readRepoFile(file).length).toBeGreaterThan(0);
	}
});

it('gives the guard for the sandbox server and n8n-core, as the harness imports them', () => {
	expect(resolvedInFastTier('test/harness/sandbox.ts', '../../sandbox/server.cjs')).toBe(
		'test/fastTierGuard.js',
	);
	expect(resolvedInFastTier('test/harness/engine.ts', 'n8n-core')).toBe('test/fastTierGuard.js');
});

it('resolves everything else as the full tier does', () => {
	expect(resolvedInFastTier('test/sandbox/random.test.ts', '../../sandbox/random.cjs')).toBe(
		'sandbox/random.cts',
	);
	expect(resolvedInFastTier('test/harness/engine.ts', 'n8n-workflow')).toMatch(
		// node_modules may be a link elsewhere: Node resolves it to its real path.
		/(^|\/)node_modules\/n8n-workflow\//,
	);
});

it('lets a test import what it refuses, and fails the test that uses it', () => {
	const guard = fastTierGuard();
	expect(guard.__esModule).toBeUndefined();
	expect(() => guard.startSandbox).toThrow(/fast tier \(npm run test:fast\).*"startSandbox"/);
});
