/**
 * One engine run in a fresh process: `node build/bench/worker.cjs <job.json> <result.json>`.
 * A process per run keeps memory figures and JIT warm-up of one case out of the next.
 */
import './env.cjs';

import { readFileSync, writeFileSync } from 'node:fs';
import { runJob, type Job } from './jobs/index.cjs';

async function main() {
	const [jobPath, resultPath] = process.argv.slice(2);
	if (!jobPath || !resultPath) throw new Error('usage: worker.js <job.json> <result.json>');
	const job = JSON.parse(readFileSync(jobPath, 'utf8')) as Job;
	const result = await runJob(job);
	writeFileSync(resultPath, JSON.stringify(result));
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : error);
		process.exit(1);
	},
);
