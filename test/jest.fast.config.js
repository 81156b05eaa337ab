// `npm run test:fast`: the tests of test/fastTier.js, with the sandbox's server and n8n-core refused.
const base = require('./jest.config.js');
const { FAST_TESTS } = require('./fastTier');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	testMatch: FAST_TESTS.map((file) => `<rootDir>/${file}`),
	resolver: '<rootDir>/test/resolve-fast.js',
};
