/**
 * The real n8n of the end-to-end scripts, driven through its CLI (bench/real-n8n.sh): import
 * credentials and workflows into a fresh user folder, then `n8n execute` a workflow and read its
 * run data.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { benchTempDir } from './bench';

const REPO = join(__dirname, '..', '..', '..');
const SCRIPT = join(REPO, 'bench', 'real-n8n.sh');
/** The exit code of real-n8n.sh when n8n is not installed. */
const NOT_INSTALLED = 3;

export class RealN8nMissing extends Error {}

interface CommandResult {
	stdout: string;
	stderr: string;
}

/** Two free consecutive-ish ports: n8n's own and its task runner broker's (port + 1). */
async function freePort(): Promise<number> {
	for (;;) {
		const port = await new Promise<number>((resolve, reject) => {
			const server = createServer();
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				const address = server.address();
				server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
			});
		});
		if (port > 0 && port < 65535) return port;
	}
}

export class RealN8n {
	private constructor(
		readonly userFolder: string,
		private readonly port: number,
	) {}

	/** A fresh n8n user folder with this package installed as a community package would be. */
	static async create(): Promise<RealN8n> {
		const userFolder = benchTempDir('real-n8n');
		const packageDir = join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-contact-data');
		mkdirSync(packageDir, { recursive: true });
		// dist and package.json only, no node_modules: n8n-workflow and zod then resolve to n8n's own
		// copies, as for a package n8n installed itself.
		cpSync(join(REPO, 'dist'), join(packageDir, 'dist'), { recursive: true });
		cpSync(join(REPO, 'package.json'), join(packageDir, 'package.json'));
		return new RealN8n(userFolder, await freePort());
	}

	run(args: string[]): Promise<CommandResult> {
		return new Promise((resolve, reject) => {
			const child = spawn('bash', [SCRIPT, this.userFolder, String(this.port), ...args], {
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			const out: Buffer[] = [];
			const err: Buffer[] = [];
			child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
			child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
			child.on('error', reject);
			child.on('exit', (code) => {
				const result = { stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
				if (code === NOT_INSTALLED) reject(new RealN8nMissing(result.stderr.trim()));
				else if (code !== 0) reject(new Error(`n8n ${args[0]} exited ${code}: ${(result.stderr + result.stdout).slice(-3000)}`));
				else resolve(result);
			});
		});
	}

	async importJson(kind: 'credentials' | 'workflow', name: string, data: unknown): Promise<void> {
		const path = join(this.userFolder, `${name}.json`);
		writeFileSync(path, JSON.stringify(data));
		await this.run([`import:${kind}`, `--input=${path}`]);
	}

	/** Runs a workflow to its end and returns its run data (`n8n execute --rawOutput`). */
	async execute(workflowId: string): Promise<ExecutionRun> {
		const { stdout } = await this.run(['execute', `--id=${workflowId}`, '--rawOutput']);
		const start = stdout.search(/^\{/m);
		if (start === -1) throw new Error(`n8n execute printed no run data: ${stdout.slice(-2000)}`);
		return JSON.parse(stdout.slice(start)) as ExecutionRun;
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
