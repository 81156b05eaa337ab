/** Runs a job in a fresh bench worker process and returns its result. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type {
	Job,
	NodeRunJob,
	NodeRunResult,
	OverheadJob,
	OverheadResult,
	PollRunJob,
	PollRunResult,
} from '../jobs/index.cjs';

const WORKER = join(__dirname, '..', 'worker.cjs');

export function inWorker(job: NodeRunJob): Promise<NodeRunResult>;
export function inWorker(job: OverheadJob): Promise<OverheadResult>;
export function inWorker(job: PollRunJob): Promise<PollRunResult>;
export async function inWorker(job: Job): Promise<unknown> {
	const dir = mkdtempSync(join(tmpdir(), 'contact-data-bench-job-'));
	const jobPath = join(dir, 'job.json');
	const resultPath = join(dir, 'result.json');
	writeFileSync(jobPath, JSON.stringify(job));
	try {
		await new Promise<void>((resolve, reject) => {
			// BENCH_CPU_PROF=<folder>: a V8 CPU profile of every worker, to see where a node's time goes.
			const profile = process.env.BENCH_CPU_PROF
				? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
				: [];
			const child = spawn(
				process.execPath,
				['--expose-gc', ...profile, WORKER, jobPath, resultPath],
				{
					stdio: ['ignore', 'ignore', 'pipe'],
					// n8n-core's settings folder, inside the bench's temp folder so it is removed at the end.
					env: { ...process.env, N8N_USER_FOLDER: join(dir, 'n8n') },
				},
			);
			let errors = '';
			child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
			child.on('error', reject);
			child.on('exit', (code) =>
				code === 0
					? resolve()
					: reject(new Error(`bench worker (${job.kind}) failed: ${errors.slice(-3000)}`)),
			);
		});
		return JSON.parse(readFileSync(resultPath, 'utf8')) as unknown;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
