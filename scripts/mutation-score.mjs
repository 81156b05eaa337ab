// `node scripts/mutation-score.mjs <report.json>…`: the mutation score over Stryker's JSON
// reports together (`npm run mutate -- --mutate <file>` writes one a run), as Stryker computes
// it: killed and timed-out mutants over all valid ones, no coverage counted as surviving. A file
// in several reports counts from the last. `--survivors` lists each surviving mutant: file:line,
// mutator, replacement.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const listSurvivors = args.includes('--survivors');
const reports = args.filter((arg) => arg !== '--survivors');
if (reports.length === 0) {
	console.error('usage: node scripts/mutation-score.mjs [--survivors] <report.json>…');
	process.exit(2);
}

/** Mutants by source file, each file from the last report holding it. */
const files = new Map();
for (const report of reports)
	for (const [file, { mutants }] of Object.entries(JSON.parse(readFileSync(report, 'utf8')).files))
		files.set(file, mutants);

const DETECTED = ['Killed', 'Timeout'];
const UNDETECTED = ['Survived', 'NoCoverage'];
const COLUMNS = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'RuntimeError'];

function countsOf(mutants) {
	const counts = Object.fromEntries(COLUMNS.map((status) => [status, 0]));
	for (const { status } of mutants) counts[status] = (counts[status] ?? 0) + 1;
	const detected = DETECTED.reduce((sum, status) => sum + counts[status], 0);
	const valid = detected + UNDETECTED.reduce((sum, status) => sum + counts[status], 0);
	return { counts, valid, score: valid ? (100 * detected) / valid : NaN };
}

const row = (name, mutants) => {
	const { counts, valid, score } = countsOf(mutants);
	const cells = [mutants.length, valid, ...COLUMNS.map((status) => counts[status])];
	return `${name.padEnd(52)} ${cells.map((n) => String(n).padStart(9)).join('')} ${score.toFixed(2).padStart(7)}`;
};
console.log(
	`${'file'.padEnd(52)} ${['mutants', 'valid', ...COLUMNS].map((h) => h.slice(0, 8).padStart(9)).join('')}   score`,
);
for (const [file, mutants] of [...files].sort()) console.log(row(file, mutants));
console.log(row('all files', [...files.values()].flat()));

if (listSurvivors)
	for (const [file, mutants] of [...files].sort())
		for (const m of mutants.filter(({ status }) => UNDETECTED.includes(status)))
			console.log(
				`${file}:${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? '')}`,
			);
