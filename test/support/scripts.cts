/** Runs one of the repository's Node scripts as a child process, as a user would from a shell. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from './files.cjs';

/** Runs `node <script> ...args` with extra environment; rejects (with stdout and stderr) on a non-zero exit. */
export async function runRepoScript(
	script: string,
	args: string[],
	env: Record<string, string>,
): Promise<{ stdout: string; stderr: string }> {
	return await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, script), ...args], {
		env: { ...process.env, ...env },
	});
}
