/** The bench's figures: one object per case, printed as a table and written to bench/results.json. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface Target {
	name: string;
	met: boolean;
	/** The measured figure the target is about, as printed. */
	value: string;
}

export interface CaseResult {
	case: string;
	title: string;
	/** Sandbox time scale: a minute of rate limit lasts 60 / time_scale seconds. */
	time_scale: number | null;
	calls: number | null;
	floor_calls: number | null;
	http_429: number | null;
	credits: number | null;
	wall_s: number | null;
	floor_s: number | null;
	/** wall_s / floor_s */
	ratio: number | null;
	floor_definition: string;
	targets: Target[];
	/** Set when the case could not run; the figures are then null. */
	skipped?: string;
	[extra: string]: unknown;
}

export interface BenchResults {
	generated_at: string;
	machine: {
		cpus: number;
		cpu_model: string;
		node: string;
		platform: string;
		load_average_at_start: number[];
	};
	total_s: number;
	notes: string[];
	unlock?: CaseResult;
	search?: CaseResult;
	export?: CaseResult;
	overhead?: CaseResult;
	alternative?: CaseResult;
	[extra: string]: unknown;
}

export function machine(loadAtStart: number[]): BenchResults['machine'] {
	return {
		load_average_at_start: loadAtStart.map((load) => round(load, 2)),
		cpus: cpus().length,
		cpu_model: cpus()[0]?.model ?? 'unknown',
		node: process.version,
		platform: `${process.platform}-${process.arch}`,
	};
}

/** A case that could not run: no figures, and why. */
export function failedCase(name: string, title: string, message: string): CaseResult {
	return {
		case: name,
		title,
		time_scale: null,
		calls: null,
		floor_calls: null,
		http_429: null,
		credits: null,
		wall_s: null,
		floor_s: null,
		ratio: null,
		floor_definition: '-',
		targets: [],
		skipped: `failed: ${message.slice(0, 2000)}`,
	};
}

export function ratio(wall: number | null, floor: number | null): number | null {
	if (wall === null || floor === null || floor <= 0) return null;
	return round(wall / floor, 3);
}

export function round(value: number, digits = 3): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

const COLUMNS: Array<[string, (result: CaseResult) => unknown]> = [
	['case', (r) => r.case],
	['scale', (r) => r.time_scale],
	['calls', (r) => r.calls],
	['floor', (r) => r.floor_calls],
	['429s', (r) => r.http_429],
	['credits', (r) => r.credits],
	['first call s', (r) => r.before_first_call_s],
	['wall s', (r) => r.wall_s],
	['floor s', (r) => r.floor_s],
	['ratio', (r) => r.ratio],
];

function cell(value: unknown): string {
	if (value === null || value === undefined) return '-';
	if (typeof value === 'number')
		return Number.isInteger(value) ? value.toLocaleString('en-US') : String(value);
	return String(value);
}

export function formatTable(results: CaseResult[]): string {
	const rows = [
		COLUMNS.map(([name]) => name),
		...results.map((r) => COLUMNS.map(([, get]) => cell(get(r)))),
	];
	const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i].length)));
	const line = (row: string[]) =>
		row.map((text, i) => (i === 0 ? text.padEnd(widths[i]) : text.padStart(widths[i]))).join('  ');
	const out = [
		line(rows[0]),
		widths.map((w) => '-'.repeat(w)).join('  '),
		...rows.slice(1).map(line),
	];
	for (const result of results) {
		out.push('', `${result.case}: ${result.title}`);
		if (result.skipped) out.push(`  SKIPPED: ${result.skipped}`);
		out.push(`  floor: ${result.floor_definition}`);
		for (const target of result.targets)
			out.push(`  [${target.met ? 'met' : 'MISSED'}] ${target.name}: ${target.value}`);
		const details = result.details;
		if (Array.isArray(details)) for (const detail of details) out.push(`  ${String(detail)}`);
	}
	return out.join('\n');
}

/** Writes the figures, keeping the queue-mode figures `npm run bench:queue` merged into the same file. */
export function writeResults(path: string, results: BenchResults): void {
	const queueMode = existsSync(path)
		? (JSON.parse(readFileSync(path, 'utf8')) as BenchResults).queue_mode
		: undefined;
	const merged = queueMode === undefined ? results : { ...results, queue_mode: queueMode };
	writeFileSync(path, `${JSON.stringify(merged, null, '\t')}\n`);
}
