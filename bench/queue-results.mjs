// Records the figures of `npm run bench:queue` (bench/queue.sh): reads the unlock runs scripts/queue/test.sh
// wrote (QUEUE_FIGURES_JSON), adds the contract's schedule and the issue's targets, merges them into
// bench/results.json under `queue_mode` (every other figure kept) and rewrites the queue-mode table of
// docs/performance.md (between its markers). Usage: node bench/queue-results.mjs <runs.json>
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const RESULTS = join(ROOT, 'bench/results.json');
const DOC = join(ROOT, 'docs/performance.md');
const [START, END] = ['<!-- queue-mode figures: start -->', '<!-- queue-mode figures: end -->'];
// The contract: 60 unlock calls per rolling minute per key; the sandbox's time scale shortens the minute.
const UNLOCK_LIMIT = 60;

/** The contract's schedule for the fewest calls at the full rate: calls / limit windows of 60 s / scale. */
function schedule(run) {
	const window = 60 / run.time_scale;
	return {
		schedule_s: (run.minimum_calls / UNLOCK_LIMIT) * window,
		// From an idle window the first `limit` calls need not wait: the last window starts this much later.
		idle_window_floor_s: (Math.ceil(run.minimum_calls / UNLOCK_LIMIT) - 1) * window,
	};
}

function withTargets(run) {
	const timing = schedule(run);
	const calls_ratio = run.calls / run.minimum_calls;
	const wall_ratio = run.wall_s / timing.schedule_s;
	return {
		...run,
		...timing,
		calls_ratio: round(calls_ratio),
		wall_ratio: round(wall_ratio),
		unlock_span_ratio:
			run.unlock_span_s === undefined ? null : round(run.unlock_span_s / timing.schedule_s),
		calls_span_ratio:
			run.calls_span_s === undefined ? null : round(run.calls_span_s / timing.schedule_s),
		targets_met: {
			no_failed_items: run.failed_items === 0,
			credits_equal_unique: run.credits_charged === run.unique_unlocked,
			calls_within_1_05_of_minimum: calls_ratio <= 1.05,
			wall_within_1_10_of_schedule: wall_ratio <= 1.1,
			calls_span_within_1_10_of_schedule:
				run.calls_span_s === undefined ? null : run.calls_span_s / timing.schedule_s <= 1.1,
		},
	};
}

const round = (value) => Math.round(value * 100) / 100;
const number = (value) => value.toLocaleString('en-US');

/** "measured / schedule s (ratio)", or n/a for a figure an older run did not record. */
function againstSchedule(seconds, ratio, run) {
	return seconds === undefined
		? 'n/a'
		: `${seconds.toFixed(1)} / ${run.schedule_s.toFixed(0)} s (${ratio.toFixed(2)})`;
}

function row(run) {
	const mode =
		run.mode === 'queue'
			? `queue, ${run.workers} workers × concurrency ${run.worker_concurrency}`
			: 'regular (one n8n process)';
	const credits =
		run.credits_charged === run.unique_unlocked
			? `equal (${number(run.credits_charged)})`
			: `${number(run.credits_charged)} vs ${number(run.unique_unlocked)}`;
	return `| ${mode} | ${run.executions} × ${number(run.ids_per_execution)} | ${run.calls} (${run.minimum_calls}) | ${run.http_429} | ${run.failed_items} | ${credits} | ${againstSchedule(run.wall_s, run.wall_ratio, run)} | ${againstSchedule(run.unlock_span_s, run.unlock_span_ratio, run)} | ${run.before_first_call_s === undefined ? 'n/a' : `${run.before_first_call_s.toFixed(1)} s`} | ${againstSchedule(run.calls_span_s, run.calls_span_ratio, run)} |`;
}

function table(runs) {
	return [
		START,
		"| mode | executions × ids | calls (minimum) | 429s | failed items | credits vs unique | wall / schedule (ratio) | Unlock span / schedule (ratio) | Unlock start to first call | unlock calls' span / schedule (ratio) |",
		'|---|---|---|---|---|---|---|---|---|---|',
		...runs.map(row),
		END,
	].join('\n');
}

const runs = JSON.parse(readFileSync(process.argv[2], 'utf8')).map(withTargets);
const results = JSON.parse(readFileSync(RESULTS, 'utf8'));
results.queue_mode = {
	generated_at: new Date().toISOString(),
	notes: [
		'4 concurrent executions on one key unlock overlapping ids (each shares a third of its ids with the next) through n8n itself (scripts/queue/test.sh, QUEUE_ONLY=unlock), sandbox at time scale 6.',
		'minimum_calls = executions × ceil(ids per execution / 100): each execution pays its own ids, 100 per call.',
		'schedule_s = minimum_calls / 60 × 60 s / time scale: the fewest calls at the contract rate (60 unlock calls per rolling minute per key). idle_window_floor_s = (ceil(minimum_calls / 60) - 1) × 60 s / time scale: the same calls from an idle window, whose first 60 calls need not wait.',
		'wall_s: from the first webhook call to n8n to the last execution seen finished (polled every second). unlock_span_s: from the first Unlock node start to the last Unlock node end (n8n run data), without the webhook, the split and saving the executions. before_first_call_s: from the first Unlock node start to the first unlock call (the node reads the Contact IDs of all its items before sending anything; n8n 2.41 evaluates the expression of each in its isolated "vm" expression engine). calls_span_s: from the first to the last unlock call at the sandbox (what the pacing decides).',
	],
	runs,
};
writeFileSync(RESULTS, `${JSON.stringify(results, null, '\t')}\n`);

const doc = readFileSync(DOC, 'utf8');
const at = doc.indexOf(START);
if (at < 0) throw new Error(`docs/performance.md has no ${START} marker`);
writeFileSync(DOC, doc.slice(0, at) + table(runs) + doc.slice(doc.indexOf(END) + END.length));
process.stdout.write(
	`${table(runs)}\nfigures merged into bench/results.json (queue_mode) and docs/performance.md\n`,
);
