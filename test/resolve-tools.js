// Jest resolver: a tool module (.cts) is imported by its compiled name (.cjs), as TypeScript requires;
// jest runs its source. Every other request (n8n's own .cjs files included) resolves as usual.
const { existsSync } = require('node:fs');
const path = require('node:path');

module.exports = (request, options) => {
	if (/^\.{1,2}\//.test(request) && request.endsWith('.cjs')) {
		const source = path.resolve(options.basedir, `${request.slice(0, -'.cjs'.length)}.cts`);
		if (existsSync(source)) return source;
	}
	return options.defaultResolver(request, options);
};
