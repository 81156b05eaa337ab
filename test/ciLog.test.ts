/**
 * `npm test`'s log reads as this project's tests to CI, which also reads the closing lines of other test
 * runners (pytest, go test, node's test runner, prove, …; scripts/runner-lines.cjs). Issue 44, finding 11: the
 * checks' 100+ lines "  ok    <what>" read as TAP test points without a plan, and a passing run was judged to
 * have run no test. No script prints such a line, and the log ends with the total of all stages.
 */
import { runnerOf } from '../scripts/runner-lines.cjs';
import { readRepoFile, repoFolderEntries } from './support/files.cjs';

/** The scripts under a folder, by their path from the root. */
function scriptsUnder(folder: string): string[] {
	return repoFolderEntries(folder).flatMap((entry) => {
		const file = `${folder}/${entry}`;
		if (/\.(sh|mjs|cjs|js)$/.test(entry)) return [file];
		return /\./.test(entry) ? [] : scriptsUnder(file);
	});
}

/** A printed literal's lines, each value put in (`$what`, `${what}`, `$(…)`) read as "X". */
function linesOf(literal: string): string[] {
	return literal
		.replace(/\$\{[^}]*\}|\$\([^)]*\)|\$\w+/g, 'X')
		.split(/\\n|\n/)
		.filter((line) => line.trim() !== '');
}

const PRINTS = [
	// echo "…", echo '…', printf '…' (shell)
	/\b(?:echo|printf)\s+(?:-[a-z]+\s+)?(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/g,
	// console.log(`…`), process.stdout.write('…') (JavaScript)
	/\b(?:console\.(?:log|error|warn|info)|process\.std(?:out|err)\.write)\(\s*(?:`((?:[^`\\]|\\.)*)`|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g,
];

/** Every line a script prints from a literal: [file, line as printed, values as "X"]. */
function printedLines(): Array<[string, string]> {
	return scriptsUnder('scripts').flatMap((file) => {
		const source = readRepoFile(file);
		return PRINTS.flatMap((print) =>
			[...source.matchAll(print)].flatMap((match) =>
				linesOf(match.slice(1).find((group) => group !== undefined) ?? '').map(
					(line): [string, string] => [file, line],
				),
			),
		);
	});
}

it('reads every closing line of the runners CI knows as that runner’s, and ours as none', () => {
	const theirs = [
		'ok 1 - signs in',
		'not ok 2 - the example',
		'ok  \tgithub.com/x/y\t0.012s',
		'1..52',
		'# tests 52',
		'ℹ pass 52',
		'--- PASS: TestX (0.00s)',
		'PASS',
		// jest's per-file line, and pytest's section rule: a reader may take either for that runner's close
		'PASS test/docs.test.ts (5.2 s)',
		'=== FAILURES ===',
		'DONE 52 tests in 1.2s',
		'test result: ok. 52 passed; 0 failed; 0 ignored',
		'Summary [   1.0s] 52 tests run: 52 passed, 0 skipped',
		'===== 52 passed in 1.23s =====',
		'Tests run: 52, Failures: 0, Errors: 0, Skipped: 0',
		'100% tests passed, 0 tests failed out of 52',
		'All tests successful.',
		'Files=1, Tests=52,  0 wallclock secs',
		'Result: PASS',
		'52 examples, 0 failures',
		'52 runs, 60 assertions, 0 failures, 0 errors, 0 skips',
		'All 52 tests passed.',
		'52 tests, 0 failures',
		'1 of 1 test suites (1 of 1 test cases) passed.',
		'Ran: 52 tests in: 0.10 seconds.',
		'OK (52 tests, 60 assertions)',
		'Tests: 52, Assertions: 60, Failures: 1.',
		'[====] Synthesis: Tested: 52 | Passing: 52 | Failing: 0 | Crashing: 0',
		'[  PASSED  ] 52 test(s).',
		'Run Summary:    Type  Total    Ran Passed Failed Inactive',
		'100%: Checks: 52, Failures: 0, Errors: 0',
		'Executed 52 tests, with 0 failures (0 unexpected) in 1.0 (1.0) seconds',
	];
	expect(theirs.filter((line) => runnerOf(`  ${line}`) === undefined)).toEqual([]);
	const ours = [
		'total: 1201 passed, 0 failed',
		'e2e: 52 passed, 0 failed',
		'jest: 900 passed, 0 failed',
		'  pass  browser: signs in through the sign-in form',
		'  fail  the credential test',
		'Tests:       900 passed, 900 total',
		'[stage] e2e-2.x',
		'[stage] e2e-2.x failed (exit 1)',
		'okay, the sandbox is up',
	];
	expect(ours.filter((line) => runnerOf(line) !== undefined)).toEqual([]);
});

it('prints no line from a script that another test runner would read as its own', () => {
	const printed = printedLines();
	// The check's count line is found, so a script's lines are read at all.
	expect(printed).toContainEqual(['scripts/n8n/checks.sh', 'X: X passed, X failed']);
	expect(printed.length).toBeGreaterThan(100);
	expect(
		printed.filter(([, line]) => runnerOf(line) !== undefined).map((each) => each.join(': ')),
	).toEqual([]);
});

it('reads every stage’s log for such lines, then ends with the total of all stages', () => {
	const stages = readRepoFile('scripts/test.sh').trimEnd().split('\n');
	expect(stages).toContain('stage log node scripts/runner-lines.cjs "$LOG_DIR"/*.log');
	const total = stages.indexOf('echo "total: $PASSED passed, $FAILED failed"');
	expect(total).toBeGreaterThan(
		stages.indexOf('stage log node scripts/runner-lines.cjs "$LOG_DIR"/*.log'),
	);
	// After it only the exit status: the total is the log's last line.
	expect(stages.slice(total + 1)).toEqual(['[ "$FAILED" -eq 0 ]']);
});
