/**
 * The sandbox in a process of its own (build/sandbox/cli.cjs), so the process that runs the node
 * is measured alone: its memory, and its CPU on a 2-core machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { sandboxAdmin, type SandboxAdmin } from '../../test/harness/sandbox';

export interface SandboxProcessOptions {
	contacts: number;
	timeScale?: number;
	rateLimits?: boolean;
	seed?: number;
}

export interface SandboxProcess {
	url: string;
	admin: SandboxAdmin;
	pid: number;
	close(): Promise<void>;
}

const CLI = join(__dirname, '..', '..', 'sandbox', 'cli.cjs');
const STARTUP_TIMEOUT_MS = 180_000;

export async function startSandboxProcess(options: SandboxProcessOptions): Promise<SandboxProcess> {
	const child = spawn(process.execPath, [CLI], {
		env: {
			...process.env,
			SANDBOX_PORT: '0',
			SANDBOX_CONTACTS: String(options.contacts),
			SANDBOX_SEED: String(options.seed ?? 42),
			SANDBOX_TIME_SCALE: String(options.timeScale ?? 1),
			SANDBOX_RATE_LIMITS: options.rateLimits === false ? 'off' : 'on',
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const url = await waitForUrl(child);
	return {
		url,
		admin: sandboxAdmin(url),
		pid: child.pid!,
		close: () => stop(child),
	};
}

function waitForUrl(child: ChildProcess): Promise<string> {
	return new Promise((resolve, reject) => {
		let output = '';
		const timer = setTimeout(
			() => fail(new Error('the sandbox printed no URL in time')),
			STARTUP_TIMEOUT_MS,
		);
		const fail = (error: Error) => {
			clearTimeout(timer);
			child.kill('SIGTERM');
			reject(new Error(`${error.message}\n${output.slice(-2000)}`));
		};
		const onData = (chunk: Buffer) => {
			output += chunk.toString();
			const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
			if (match) {
				clearTimeout(timer);
				child.stdout!.off('data', onData);
				// Keep draining so a chatty sandbox never blocks on a full pipe.
				child.stdout!.resume();
				resolve(match[0]);
			}
		};
		child.stdout!.on('data', onData);
		child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.once('exit', (code) =>
			fail(new Error(`the sandbox exited (code ${code}) before it was ready`)),
		);
	});
}

function stop(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
		child.removeAllListeners('exit');
		child.once('exit', () => {
			clearTimeout(force);
			resolve();
		});
		child.kill('SIGTERM');
	});
}
