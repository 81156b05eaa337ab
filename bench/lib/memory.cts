/**
 * Resident memory of this process: the idle figure before a run and the peak during it.
 *
 * The peak is the kernel's high-water mark (VmHWM), reset just before the run through
 * /proc/self/clear_refs, so loading n8n-core does not count towards it. A 5 ms sampler of
 * `process.memoryUsage.rss()` runs beside it as a cross-check on systems without /proc.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const MB = 1024 * 1024;

function statusKb(field: 'VmHWM' | 'VmRSS'): number | undefined {
	try {
		const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
			readFileSync('/proc/self/status', 'utf8'),
		);
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

function resetHighWaterMark(): boolean {
	try {
		writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

export interface MemoryFigures {
	idle_rss_mb: number;
	peak_rss_mb: number;
	/** Peak above idle. */
	growth_mb: number;
	/** How the peak was taken: the kernel's high-water mark or the sampler alone. */
	peak_source: 'VmHWM' | 'sampled';
	/** The highest sampled RSS of each quarter second of the run: flat when memory does not grow. */
	timeline_mb: number[];
}

const TIMELINE_STEP_MS = 250;

export class PeakMemory {
	private idle = 0;
	private sampledPeak = 0;
	private hwmReset = false;
	private timer: NodeJS.Timeout | undefined;
	private started = 0;
	private readonly timeline: number[] = [];

	/** Call when the process is loaded and idle, right before the measured work. */
	start(): void {
		global.gc?.();
		this.idle = process.memoryUsage.rss();
		this.sampledPeak = this.idle;
		this.hwmReset = resetHighWaterMark();
		this.started = Date.now();
		this.timer = setInterval(() => this.sample(), 5);
	}

	private sample(): void {
		const rss = process.memoryUsage.rss();
		this.sampledPeak = Math.max(this.sampledPeak, rss);
		const step = Math.floor((Date.now() - this.started) / TIMELINE_STEP_MS);
		this.timeline[step] = Math.max(this.timeline[step] ?? 0, rss);
	}

	stop(): MemoryFigures {
		if (this.timer) clearInterval(this.timer);
		this.sample();
		const hwm = this.hwmReset ? statusKb('VmHWM') : undefined;
		const peak = Math.max(this.sampledPeak, hwm ?? 0);
		return {
			idle_rss_mb: round(this.idle / MB),
			peak_rss_mb: round(peak / MB),
			growth_mb: round((peak - this.idle) / MB),
			peak_source: hwm === undefined ? 'sampled' : 'VmHWM',
			// A step with no sample (a long synchronous stretch) repeats the one before.
			timeline_mb: Array.from(this.timeline, (rss, i) =>
				round((rss ?? this.timeline[i - 1] ?? this.idle) / MB),
			),
		};
	}
}

function round(value: number): number {
	return Math.round(value * 10) / 10;
}
