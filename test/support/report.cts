/**
 * Figures a test prints beside what it asserts (its runs, counts and times). Written to the process's own
 * output, not through jest's console, so `npm test`'s summary-only reporter shows them too.
 */
export function report(line: string): void {
	process.stdout.write(`${line}\n`);
}
