/**
 * Case 3: a saved list exported as CSV into binary data, at 100,000 and 1,000,000 contacts.
 *
 * The node runs in a worker process of its own with n8n's BinaryDataService in filesystem mode
 * (as a real n8n instance runs by default), the sandbox in another; the worker's resident memory
 * is measured from idle (n8n-core and the node loaded) to the peak of the run. The floor is a plain
 * undici client making the same export request and streaming the file to disk.
 */
import { createReadStream, createWriteStream, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';

import { PATHS } from '../../nodes/ContactData/shared/client/contract';
import { BENCH_KEY, benchTempDir, secondsSince } from '../lib/bench.cjs';
import { exportParameters } from '../lib/nodeParameters.cjs';
import { call } from '../../test/harness/api';
import { ratio, round, type CaseResult } from '../lib/report.cjs';
import { startSandboxProcess } from '../lib/sandboxProcess.cjs';
import { inWorker } from '../lib/workerProcess.cjs';

const MB = 1_000_000;
const MEMORY_TARGET_MB = 200;

interface ExportAnswer {
	url?: string;
	contact_count?: number;
}

/** The plain client's export: request it, then stream the file to disk. */
async function plainExport(baseUrl: string, listId: string, dir: string) {
	const started = process.hrtime.bigint();
	const answer = await call(
		baseUrl,
		'POST',
		PATHS.listExport(listId),
		{ format: 'csv' },
		{ key: BENCH_KEY },
	);
	const { url } = (answer.body ?? {}) as ExportAnswer;
	if (answer.status !== 202 || !url)
		throw new Error(`export answered ${answer.status} without a url`);
	const download = await request(url);
	if (download.statusCode !== 200)
		throw new Error(`export download answered ${download.statusCode}`);
	const path = join(dir, 'plain.csv');
	await pipeline(download.body, createWriteStream(path));
	return { wall_s: secondsSince(started), bytes: statSync(path).size, path };
}

/** CSV rows less the header, counted by line ends. */
async function csvRows(path: string): Promise<number> {
	let lines = 0;
	for await (const chunk of createReadStream(path)) {
		const buffer = chunk as Buffer;
		for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) lines++;
	}
	return lines - 1;
}

/** The largest file under a folder: the stored export. */
function largestFile(dir: string): string | undefined {
	let best: { path: string; size: number } | undefined;
	for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const path = join(entry.parentPath, entry.name);
		const size = statSync(path).size;
		if (!best || size > best.size) best = { path, size };
	}
	return best?.path;
}

export interface ExportSizeFigures {
	rows: number;
	bytes: number;
	calls: number;
	http_429: number;
	credits: number;
	wall_s: number;
	floor_s: number;
	ratio: number | null;
	mb_per_s: number;
	plain_mb_per_s: number;
	idle_rss_mb: number;
	peak_rss_mb: number;
	growth_mb: number;
	peak_source: string;
	/** The highest RSS of each quarter second of the node run. */
	rss_timeline_mb: number[];
	stored: string;
	rows_in_file: number;
	same_bytes_as_plain: boolean;
	sandbox_start_s: number;
}

export async function exportSize(contacts: number): Promise<ExportSizeFigures> {
	const sandboxStarted = process.hrtime.bigint();
	const sandbox = await startSandboxProcess({ contacts, rateLimits: true });
	const sandboxStart = secondsSince(sandboxStarted);
	try {
		const created = await call(
			sandbox.url,
			'POST',
			PATHS.lists,
			{ name: `Bench ${contacts}`, filters: {} },
			{ key: BENCH_KEY },
		);
		if (created.status !== 201) throw new Error(`creating the list answered ${created.status}`);
		const { id: listId, contact_count: rows } = created.body as {
			id: string;
			contact_count: number;
		};
		const dir = benchTempDir(`export-${contacts}`);
		const plain = await plainExport(sandbox.url, listId, dir);

		const before = await sandbox.admin.stats();
		const binaryDataPath = join(dir, 'n8n-binary-data');
		const node = await inWorker({
			kind: 'node',
			baseUrl: sandbox.url,
			apiKey: BENCH_KEY,
			parameters: exportParameters(listId),
			binaryDataPath,
			measureMemory: true,
		});
		if (node.error_items > 0) throw new Error(`the export failed: ${node.first_error}`);
		const stats = await sandbox.admin.stats();
		const stored = largestFile(binaryDataPath);
		const bytes = node.binary[0]?.bytes ?? 0;
		const memory = node.memory!;
		return {
			rows,
			bytes,
			calls: stats.requests_total - before.requests_total,
			http_429: (stats.keys[BENCH_KEY]?.http_429 ?? 0) - (before.keys[BENCH_KEY]?.http_429 ?? 0),
			credits:
				(stats.keys[BENCH_KEY]?.credits_charged ?? 0) -
				(before.keys[BENCH_KEY]?.credits_charged ?? 0),
			wall_s: round(node.wall_s),
			floor_s: round(plain.wall_s),
			ratio: ratio(node.wall_s, plain.wall_s),
			mb_per_s: round(bytes / MB / node.wall_s, 1),
			plain_mb_per_s: round(plain.bytes / MB / plain.wall_s, 1),
			idle_rss_mb: memory.idle_rss_mb,
			peak_rss_mb: memory.peak_rss_mb,
			growth_mb: memory.growth_mb,
			peak_source: memory.peak_source,
			rss_timeline_mb: memory.timeline_mb,
			stored: node.binary[0]?.stored ?? 'none',
			rows_in_file: stored ? await csvRows(stored) : 0,
			same_bytes_as_plain: bytes === plain.bytes,
			sandbox_start_s: round(sandboxStart, 1),
		};
	} finally {
		await sandbox.close();
	}
}

export async function exportCase(sizes: number[]): Promise<CaseResult> {
	const bySize: ExportSizeFigures[] = [];
	for (const size of sizes) bySize.push(await exportSize(size));
	const largest = bySize[bySize.length - 1];
	const smallest = bySize[0];
	const flat = largest.growth_mb <= smallest.growth_mb * 1.5 + 20;
	return {
		case: 'export',
		title: `Bulk export: saved lists of ${sizes.map((s) => s.toLocaleString('en-US')).join(' and ')} contacts, CSV into binary data (n8n filesystem mode)`,
		time_scale: null,
		calls: largest.calls,
		floor_calls: 2,
		http_429: Math.max(...bySize.map((s) => s.http_429)),
		credits: Math.max(...bySize.map((s) => s.credits)),
		wall_s: largest.wall_s,
		floor_s: largest.floor_s,
		ratio: largest.ratio,
		floor_definition:
			'a plain undici client making the same export request and streaming the file to disk (POST export, GET the signed URL): the sandbox-bound time. Exports are not rate limited; calls counts every request the sandbox received.',
		targets: [
			{
				name: `peak memory under ${MEMORY_TARGET_MB} MB above idle`,
				met: bySize.every((s) => s.growth_mb < MEMORY_TARGET_MB),
				value: bySize
					.map((s) => `${s.rows.toLocaleString('en-US')} rows: +${s.growth_mb} MB`)
					.join(', '),
			},
			{
				name: 'peak memory does not grow with the list',
				met: flat,
				value: `${smallest.growth_mb} MB -> ${largest.growth_mb} MB above idle for ${smallest.rows.toLocaleString('en-US')} -> ${largest.rows.toLocaleString('en-US')} rows`,
			},
			{
				name: 'every row in the file, same bytes as the plain download',
				met: bySize.every((s) => s.rows_in_file === s.rows && s.same_bytes_as_plain),
				value: bySize
					.map(
						(s) => `${s.rows_in_file} rows, ${s.same_bytes_as_plain ? 'same' : 'DIFFERENT'} bytes`,
					)
					.join('; '),
			},
		],
		rows: largest.rows,
		bytes: largest.bytes,
		mb_per_s: largest.mb_per_s,
		idle_rss_mb: largest.idle_rss_mb,
		peak_rss_mb: largest.peak_rss_mb,
		growth_mb: largest.growth_mb,
		by_size: bySize,
		details: bySize.map(
			(size) =>
				`${size.rows.toLocaleString('en-US')} rows (${round(size.bytes / MB)} MB): ${size.mb_per_s} MB/s (plain ${size.plain_mb_per_s}), RSS idle ${size.idle_rss_mb} MB, peak ${size.peak_rss_mb} MB; highest RSS of each quarter second: ${size.rss_timeline_mb.join(', ')}`,
		),
		units:
			'throughput MB = 10^6 bytes; memory MB = 2^20 bytes (resident set size of the process running WorkflowExecute)',
	};
}
