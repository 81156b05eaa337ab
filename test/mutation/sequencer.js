// Runs the mutation test set in the order jest.config.js lists it, the fastest first, so a mutant a
// fast test kills is not also run through the slow ones (jest's own order puts the slowest first).
const Sequencer = require('@jest/test-sequencer').default;
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const { TESTS } = require('./tests.js');
const rank = (test) => {
	const at = TESTS.indexOf(path.relative(ROOT, test.path));
	return at < 0 ? TESTS.length : at;
};

module.exports = class ListedOrder extends Sequencer {
	sort(tests) {
		return [...tests].sort((a, b) => rank(a) - rank(b));
	}
};
