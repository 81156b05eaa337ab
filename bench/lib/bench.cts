/** What every case shares: the key it uses, a temp folder, input items on disk, timing. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { KEYS, type SandboxAdmin } from '../../test/harness/sandbox';

/** The sandbox's growth key: 1,000,000 credits, rate limited like a real key. */
export const BENCH_KEY = KEYS.growth;
/** Another key of the same tier, for warm-up runs: its windows and ledger are its own. */
export const WARMUP_KEY = KEYS.empty;
export const WARMUP_CREDITS = 1_000_000;

/** One key's counters in the sandbox's stats: calls of a route, 429s, credits charged. */
export async function keyFigures(admin: SandboxAdmin, key: string, route: string) {
	const figures = (await admin.stats()).keys[key];
	return {
		calls: figures?.requests[route] ?? 0,
		http_429: figures?.http_429 ?? 0,
		credits: figures?.credits_charged ?? 0,
	};
}

let tempRoot: string | undefined;

/** A fresh folder under the bench's temp root (removed by `removeBenchTemp`). */
export function benchTempDir(name: string): string {
	tempRoot ??= mkdtempSync(join(tmpdir(), 'contact-data-bench-'));
	return mkdtempSync(join(tempRoot, `${name}-`));
}

export function removeBenchTemp(): void {
	if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
	tempRoot = undefined;
}

/** Input items' json objects in a file, for a worker process to read. */
export function writeItems(name: string, items: unknown[]): string {
	const path = join(benchTempDir('items'), `${name}.json`);
	writeFileSync(path, JSON.stringify(items));
	return path;
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

export function secondsSince(started: bigint): number {
	return Number(process.hrtime.bigint() - started) / 1e9;
}
