/** The environment a test run was started with (opt-in dumps, paths handed down by scripts). */
export function envVar(name: string): string | undefined {
	return process.env[name];
}

/** Runs `run` with these environment variables set, then puts the environment back as it was. */
export async function withEnv<T>(
	vars: Record<string, string>,
	run: () => T | Promise<T>,
): Promise<T> {
	const saved = { ...process.env };
	try {
		Object.assign(process.env, vars);
		return await run();
	} finally {
		process.env = saved;
	}
}
