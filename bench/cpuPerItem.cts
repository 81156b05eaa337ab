/**
 * `npm run bench:cpu`: the node's own work per item (issue 31), everything but waiting for the API.
 * Version 2's Unlock reads the ids from each item's `id` field at 16,000 and 100,000 items (15 of
 * every 16 items a new id, as `unlock_3_windows_v2`). The sandbox runs in a process of its own with
 * rate limits off, so it answers at once and its work is not counted; each size runs in a fresh
 * worker process (n8n-core's WorkflowExecute), warmed up first on 500 items with another key. The
 * figure is the worker's CPU time (user + system) over the measured run, divided by the items.
 * Target: at 100,000 items within 1.5 × the figure at 16,000. Not part of `npm run bench`.
 *   BENCH_CPU_SIZES=16000,100000  the sizes (the ratio compares the last with the first)
 */
import { loadavg } from 'node:os';

import {
	BENCH_KEY,
	WARMUP_CREDITS,
	WARMUP_KEY,
	removeBenchTemp,
	writeItems,
} from './lib/bench.cjs';
import { unlockFieldParameters } from './lib/nodeParameters.cjs';
import { round } from './lib/report.cjs';
import { startSandboxProcess, type SandboxProcess } from './lib/sandboxProcess.cjs';
import { inWorker } from './lib/workerProcess.cjs';
import { contactIds, itemsWithRepeats } from './cases/prepare.cjs';

const SIZES = (process.env.BENCH_CPU_SIZES ?? '16000,100000').split(',').map(Number);
/** New ids among the items, as in `unlock_3_windows_v2` (15,000 ids in 16,000 items). */
const NEW_ID_SHARE = 15 / 16;
const WARMUP_ITEMS = 500;
/** Enough contacts for searches to reach the ids of the largest size. */
const CONTACTS = 1_000_000;
const MAX_RATIO = 1.5;

interface SizeFigures {
	items: number;
	ids: number;
	calls: number;
	cpu_s: number;
	cpu_us_per_item: number;
	wall_s: number;
	before_first_call_s: number;
}

async function measure(sandbox: SandboxProcess, ids: string[], size: number) {
	await sandbox.admin.reset();
	await sandbox.admin.setBalance(WARMUP_KEY, WARMUP_CREDITS);
	const items = itemsWithRepeats(ids.slice(0, Math.round(size * NEW_ID_SHARE)), size);
	const node = await inWorker({
		kind: 'node',
		baseUrl: sandbox.url,
		apiKey: BENCH_KEY,
		parameters: unlockFieldParameters(size),
		typeVersion: 2,
		inputFile: writeItems(`cpu-${size}`, items),
		warmup: {
			inputFile: writeItems('cpu-warmup', items.slice(0, WARMUP_ITEMS)),
			apiKey: WARMUP_KEY,
		},
	});
	if (node.items_out !== size || node.error_items > 0)
		throw new Error(
			`${size} items: ${node.items_out} out, ${node.error_items} errors (${node.first_error})`,
		);
	const stats = (await sandbox.admin.stats()).keys[BENCH_KEY];
	const figures: SizeFigures = {
		items: size,
		ids: new Set(items.map((item) => item.id)).size,
		calls: stats?.requests['POST /v1/unlock'] ?? 0,
		cpu_s: round(node.cpu_s, 3),
		cpu_us_per_item: round((node.cpu_s / size) * 1e6, 1),
		wall_s: round(node.wall_s, 2),
		before_first_call_s: node.http.before_first_call_s,
	};
	console.log(JSON.stringify(figures));
	return figures;
}

function ratioLine(first: SizeFigures, last: SizeFigures): string {
	const ratio = round(last.cpu_us_per_item / first.cpu_us_per_item, 2);
	const verdict = ratio <= MAX_RATIO ? 'met' : 'missed';
	return `CPU per item at ${last.items} ÷ at ${first.items}: ${ratio} (target ≤ ${MAX_RATIO}: ${verdict})`;
}

async function main() {
	const load = loadavg().map((value) => round(value, 1));
	const sandbox = await startSandboxProcess({ contacts: CONTACTS, rateLimits: false });
	try {
		const ids = await contactIds(sandbox.url, Math.round(Math.max(...SIZES) * NEW_ID_SHARE));
		const measured: SizeFigures[] = [];
		for (const size of SIZES) measured.push(await measure(sandbox, ids, size));
		console.log(`load average at the start: ${load.join(', ')}`);
		console.log(
			'| items | ids | unlock calls | CPU s | CPU µs per item | wall s | before first call s |',
		);
		console.log('|---|---|---|---|---|---|---|');
		for (const m of measured)
			console.log(
				`| ${m.items.toLocaleString('en-US')} | ${m.ids.toLocaleString('en-US')} | ${m.calls} | ${m.cpu_s} | ${m.cpu_us_per_item} | ${m.wall_s} | ${m.before_first_call_s} |`,
			);
		if (measured.length > 1) console.log(ratioLine(measured[0], measured[measured.length - 1]));
	} finally {
		await sandbox.close();
		removeBenchTemp();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : error);
		process.exit(1);
	},
);
