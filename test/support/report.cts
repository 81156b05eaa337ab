/** Figures a test prints beside what it asserts (its runs, counts and times), on the test's output. */
export function report(line: string): void {
	console.log(line);
}
