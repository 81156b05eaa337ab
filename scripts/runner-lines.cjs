// The lines other test runners print to close a run. CI reads them in `npm test`'s log, beside the plain
// "N passed, M failed" line (one word and a colon may stand before it) that scripts/test.sh ends with: a line
// of ours that reads as one of theirs makes CI count that runner's tests, not ours. 100+ check lines
// "  ok    <what>", read as TAP test points without a plan, once had a whole passing run judged "ran no test".
// Usage: node scripts/runner-lines.cjs <log file>...: prints each such line, and exits 1 when there is one.
'use strict';

/** [runner, the start of a line it prints to report a test or close a run], matched after leading spaces. */
const RUNNER_LINES = [
	['TAP (node --test, prove), go test', /^(not )?ok\b/],
	['TAP plan', /^1\.\.\d+/],
	[
		'TAP / node --test summary',
		/^# ?(tests|pass|fail|suites|skipped|todo|cancelled|duration_ms)\b/i,
	],
	['node --test spec summary', /^ℹ (tests|pass|fail|suites|skipped|todo|cancelled)\b/],
	// Any line starting "PASS" or "FAIL", as jest's per-file lines do: a reader may take it for go test's close.
	[
		'go test',
		/^(PASS|FAIL|ok)(\s|$)|^(FAIL|ok)\s+\S+\s+(\d+(\.\d+)?s|\(cached\)|\[no test files\])/,
	],
	['go test -v', /^--- (PASS|FAIL|SKIP):/],
	['gotestsum', /^DONE \d+ tests?/],
	['cargo test', /^test result: /],
	['cargo nextest', /^Summary \[|^\d+ tests? run: \d+ passed/],
	// Any line starting "=== ", as pytest's section rules do ("=== FAILURES ===").
	['pytest', /^=+ |^=+ .*\b(passed|failed|errors?|skipped|no tests ran)\b.*=+$/],
	['Maven Surefire', /^Tests run: \d+, Failures: \d+/],
	['ctest', /^\d+% tests passed, \d+ tests? failed/],
	['prove', /^(All tests successful\.|Files=\d+, Tests=\d+|Result: (PASS|FAIL|NOTESTS))/],
	['RSpec', /^\d+ examples?, \d+ failures?/],
	['minitest', /^\d+ (runs|tests), \d+ assertions, \d+ failures/],
	['EUnit', /^(All \d+ tests passed\.|Failed: \d+\.\s+Skipped: \d+\.\s+Passed: \d+)/],
	['ExUnit', /^\d+ (tests?|doctests?|propert(y|ies)), \d+ failures?/],
	['cabal', /^\d+ of \d+ test suites/],
	['OUnit', /^Ran: \d+ tests? in/],
	['PHPUnit, OUnit', /^OK$|^OK \(\d+ tests?/],
	['PHPUnit', /^Tests: \d+, Assertions: \d+/],
	['Criterion', /^\[=+\] Synthesis:/],
	['cmocka, gtest', /^\[\s*(PASSED|FAILED)\s*\] \d+ tests?|^\[=+\] \d+ tests?/],
	['CUnit', /^Run Summary:/],
	['Check', /^\d+%: Checks: \d+/],
	['swift test', /^Executed \d+ tests?, with \d+ failures?|^Test run with \d+ tests?/],
];

/** The runner a line reads as (after leading spaces and colours), or undefined for a line of our own. */
function runnerOf(line) {
	const plain = line.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, '').trimStart();
	return RUNNER_LINES.find(([, pattern]) => pattern.test(plain))?.[0];
}

module.exports = { RUNNER_LINES, runnerOf };

if (require.main === module) {
	const fs = require('node:fs');
	let found = 0;
	for (const file of process.argv.slice(2)) {
		fs.readFileSync(file, 'utf8')
			.split(/\r?\n|\r/)
			.forEach((line, index) => {
				const runner = runnerOf(line);
				if (runner === undefined) return;
				found++;
				console.log(`log: ${file}:${index + 1} reads as ${runner}'s line: ${JSON.stringify(line)}`);
			});
	}
	console.log(`log: ${found} lines read as another test runner's`);
	process.exitCode = found === 0 ? 0 : 1;
}
