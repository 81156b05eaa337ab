// Jest resolver of the fast tier: resolves as test/resolve-tools.js does, except that the modules
// test/fastTier.js refuses resolve to test/fastTierGuard.js, which fails the test that uses them.
const path = require('node:path');

const resolveTools = require('./resolve-tools');
const { REFUSED_MODULES } = require('./fastTier');

const GUARD = path.join(__dirname, 'fastTierGuard.js');

module.exports = (request, options) => {
	const resolved = resolveTools(request, options);
	const refused = REFUSED_MODULES.some((pattern) =>
		pattern.test(resolved.split(path.sep).join('/')),
	);
	return refused ? GUARD : resolved;
};
