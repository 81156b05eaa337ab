// The tests' sandbox is small unless a test asks for volume: starting one costs time in proportion
// to its contacts, and nearly every engine test starts its own.
import { TEST_SANDBOX_DEFAULTS } from './sandbox';

it('starts with a small data set on a free port, a minute lasting one second', () => {
	expect(TEST_SANDBOX_DEFAULTS.contacts).toBeLessThanOrEqual(2_000);
	expect(TEST_SANDBOX_DEFAULTS).toMatchObject({ port: 0, timeScale: 60 });
});
