/** The types of runner-lines.cjs, for the tests that use it. */
export declare const RUNNER_LINES: ReadonlyArray<readonly [string, RegExp]>;
export declare function runnerOf(line: string): string | undefined;
