// What the fast tier gives a test in place of the sandbox's server or n8n-core: importing it is
// harmless (a test may import a helper that could start a sandbox), using it fails the test.
const refusal = (name) =>
	new Error(
		`The fast tier (npm run test:fast) starts no sandbox and loads no n8n engine, but this test used ` +
			`"${String(name)}": list it in the full tier only (take it out of test/fastTier.js).`,
	);

module.exports = new Proxy(
	{},
	{
		get(_target, name) {
			// Module interop asks whether this is an ES module; answering is not using it.
			if (name === '__esModule' || typeof name === 'symbol') return undefined;
			throw refusal(name);
		},
	},
);
