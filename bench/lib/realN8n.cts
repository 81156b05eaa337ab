/**
 * The real n8n of the end-to-end scripts, driven through its CLI (bench/real-n8n.sh): import
 * credentials and workflows into a fresh user folder, then `n8n execute` a workflow and read its
 * run data.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { benchTempDir } from './bench.cjs';

const REPO = join(__dirname, '..', '..', '..');
const SCRIPT = join(REPO, 'bench', 'real-n8n.sh');
/** The exit code of real-n8n.sh when n8n is not installed. */
const NOT_INSTALLED = 3;

export class RealN8nMissing extends Error {}

interface CommandResult {
	stdout: string;
	stderr: string;
	code: number | null;
}

/** A port free right now on 127.0.0.1. */
function freePort(): Promise<number> {
	return new Promise<number>((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

export class RealN8n {
	private constructor(
		readonly userFolder: string,
		private readonly port: number,
		private readonly brokerPort: number,
	) {}

	/** A fresh n8n user folder with this package installed from its tarball, as n8n installs one. */
	static async create(): Promise<RealN8n> {
		const port = await freePort();
		let brokerPort = await freePort();
		while (brokerPort === port) brokerPort = await freePort();
		const n8n = new RealN8n(benchTempDir('real-n8n'), port, brokerPort);
		await n8n.run(['--install-package']);
		return n8n;
	}

	/** Runs a command; rejects when it fails, unless `allowFailure` (then `code` tells). */
	run(args: string[], allowFailure = false): Promise<CommandResult> {
		return new Promise((resolve, reject) => {
			const child = spawn(
				'bash',
				[SCRIPT, this.userFolder, String(this.port), String(this.brokerPort), ...args],
				{
					stdio: ['ignore', 'pipe', 'pipe'],
				},
			);
			const out: Buffer[] = [];
			const err: Buffer[] = [];
			child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
			child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
			child.on('error', reject);
			child.on('exit', (code) => {
				const result = {
					stdout: Buffer.concat(out).toString(),
					stderr: Buffer.concat(err).toString(),
					code,
				};
				if (code === NOT_INSTALLED) reject(new RealN8nMissing(result.stderr.trim()));
				else if (code !== 0 && !allowFailure)
					reject(
						new Error(
							`n8n ${args[0]} exited ${code}: ${(result.stderr + result.stdout).slice(-3000)}`,
						),
					);
				else resolve(result);
			});
		});
	}

	async importJson(kind: 'credentials' | 'workflow', name: string, data: unknown): Promise<void> {
		const path = join(this.userFolder, `${name}.json`);
		writeFileSync(path, JSON.stringify(data));
		await this.run([`import:${kind}`, `--input=${path}`]);
	}

	/**
	 * Runs a workflow to its end and returns its run data (`n8n execute --rawOutput`). A failed
	 * execution's run data is printed too (in n8n's log), and returned the same way.
	 */
	async execute(workflowId: string): Promise<ExecutionRun> {
		const { stdout } = await this.run(['execute', `--id=${workflowId}`, '--rawOutput'], true);
		// The run data is the one top-level JSON object; n8n's log lines may come before and after it.
		const match = /^\{$[\s\S]*?^\}$/m.exec(stdout);
		if (!match) throw new Error(`n8n execute printed no run data: ${stdout.slice(-2000)}`);
		return JSON.parse(match[0]) as ExecutionRun;
	}
}

export interface TaskData {
	startTime: number;
	executionTime: number;
	error?: { message?: string; description?: string };
	data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
}

export interface ExecutionRun {
	status?: string;
	startedAt?: string;
	stoppedAt?: string;
	data: { resultData: { runData: Record<string, TaskData[]>; error?: { message?: string } } };
}
