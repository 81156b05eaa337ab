// The fast tier (`npm run test:fast`): the tests that start no sandbox and load no n8n engine, so
// the loop after an edit takes seconds. A test joins by being listed here. In this tier the sandbox
// server and n8n-core resolve to a guard that fails whatever uses them (test/resolve-fast.js), so a
// test that needs either cannot slip in unnoticed. Everything listed also runs in `npm test`.

/** The fast tier's test files, by their path from the repository root. */
const FAST_TESTS = [
	'test/bench/lib/floors.test.ts',
	'test/ciLog.test.ts',
	'test/docs.test.ts',
	'test/examples.test.ts',
	'test/fastTier.test.ts',
	'test/formatting.test.ts',
	'test/harness/sandbox.test.ts',
	'test/model/invariants.test.ts',
	'test/n8nLines.test.ts',
	'test/nodes/ContactData/ContactData.panels.test.ts',
	'test/nodes/ContactData/ContactData.texts.test.ts',
	'test/nodes/ContactData/boundaries.test.ts',
	'test/nodes/ContactData/names.test.ts',
	'test/nodes/ContactData/nodesPanel.test.ts',
	'test/nodes/ContactData/resources/savedList/exportCounts.test.ts',
	'test/nodes/ContactData/shared/budget/chargingLoop.plan.test.ts',
	'test/nodes/ContactData/shared/budget/ledger.test.ts',
	'test/nodes/ContactData/shared/client/apiErrors.test.ts',
	'test/nodes/ContactData/shared/client/contract.singleSource.test.ts',
	'test/nodes/ContactData/shared/client/contract.test.ts',
	'test/nodes/ContactData/shared/client/exportContacts.test.ts',
	'test/nodes/ContactData/shared/client/failures.test.ts',
	'test/nodes/ContactData/shared/client/pacing.windows.test.ts',
	'test/nodes/ContactData/shared/layers.test.ts',
	'test/nodes/ContactData/shared/parameters/eventsToWatch.test.ts',
	'test/nodes/ContactData/shared/parameters/filterParameters.test.ts',
	'test/nodes/ContactData/shared/parameters/panelOrder.test.ts',
	'test/nodes/ContactData/shared/parameters/perItemParameters.test.ts',
	'test/nodes/ContactData/shared/parameters/savedListsToWatch.test.ts',
	'test/nodes/ContactData/trigger/acceptedEvents.test.ts',
	'test/nodes/ContactData/trigger/signature.test.ts',
	'test/nodes/ContactData/trigger/triggerHelp.test.ts',
	'test/nodes/importCycles.test.ts',
	'test/pictures.test.ts',
	'test/playground.test.ts',
	'test/sandbox/random.test.ts',
	'test/sizes.test.ts',
];

/** Modules the fast tier refuses, by their resolved path: the sandbox's server and n8n's engine. */
const REFUSED_MODULES = [/\/sandbox\/server\.c[tj]s$/, /\/node_modules\/n8n-core\//];

module.exports = { FAST_TESTS, REFUSED_MODULES };
