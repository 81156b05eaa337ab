/** The built sandbox program (build/sandbox/cli.cjs, what `npm run sandbox` starts) run as a child process. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

import { REPO_ROOT } from './files.cjs';

export interface SandboxCli {
	/** Its URL once it prints "listening on …"; rejects if it exits first. */
	ready: Promise<string>;
	/** Everything it printed so far (stdout and stderr). */
	output(): string;
	/** Sends a signal and resolves with its exit code. */
	stop(signal: 'SIGTERM' | 'SIGINT'): Promise<number | null>;
	/** Its exit code, null while it runs. */
	exitCode(): number | null;
}

/** Starts the sandbox program on a free port with 2,000 contacts, plus `env`. */
export function startSandboxCli(env: Record<string, string>): SandboxCli {
	const child = spawn(process.execPath, [path.join(REPO_ROOT, 'build/sandbox/cli.cjs')], {
		cwd: REPO_ROOT,
		env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_CONTACTS: '2000', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const ready = new Promise<string>((resolve, reject) => {
		const timer = setInterval(() => {
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
			if (match) {
				clearInterval(timer);
				resolve(match[1]);
			}
		}, 20);
		child.once('exit', () => {
			clearInterval(timer);
			reject(new Error(`the sandbox exited early: ${output}`));
		});
	});
	return {
		ready,
		output: () => output,
		stop: async (signal) => {
			const exited = once(child, 'exit');
			child.kill(signal);
			const [code] = (await exited) as [number | null];
			return code;
		},
		exitCode: () => child.exitCode,
	};
}
