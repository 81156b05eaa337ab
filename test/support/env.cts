/** The environment a test run was started with (opt-in dumps, paths handed down by scripts). */
export function envVar(name: string): string | undefined {
	return process.env[name];
}
