// The files of the mutation test set (test/mutation/jest.config.js), in the order sequencer.js runs
// them: the fastest first.
const TESTS = [
	'test/nodes/ContactData/shared/budget/ledger.test.ts',
	'test/nodes/ContactData/shared/budget/chargingLoop.plan.test.ts',
	'test/nodes/ContactData/shared/budget/budget.boundToFail.test.ts',
	'test/nodes/ContactData/shared/budget/chargingCall.texts.test.ts',
	'test/nodes/ContactData/resources/contact/unlock.outcomes.test.ts',
	'test/model/counterexamples.test.ts',
	'test/nodes/ContactData/shared/budget/budget.findings.test.ts',
	'test/nodes/ContactData/shared/budget/budget.findings.executions.test.ts',
	'test/nodes/ContactData/shared/budget/budget.findings.midnight.test.ts',
	'test/nodes/ContactData/shared/budget/budget.stackedFaults.test.ts',
	'test/nodes/ContactData/shared/budget/budget.capsOverTime.test.ts',
	'test/nodes/ContactData/resources/contact/unlock.answers.test.ts',
	'test/nodes/ContactData/resources/contact/enrich.answers.test.ts',
	'test/nodes/ContactData/shared/budget/chargingLoop.test.ts',
	'test/nodes/ContactData/shared/budget/budget.repeatedSends.test.ts',
	'test/nodes/ContactData/shared/budget/budget.replay.test.ts',
	'test/nodes/ContactData/shared/budget/budget.test.ts',
	'test/mutation/model.lean.ts',
];

module.exports = { TESTS };
