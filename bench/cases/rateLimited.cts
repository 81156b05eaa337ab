/**
 * Cases 1 and 2: the rate-limited jobs (unlock, search with Return All) against a sandbox whose
 * rolling minute is shortened by the time scale. Each job runs three times against a fresh state:
 * the plain client measures the latency of the fewest calls (rate limits off), then the node runs
 * inside WorkflowExecute with rate limits on, and the sandbox's counters give calls, 429s, credits.
 */
import { request } from 'undici';

import {
	PATHS,
	RATE_LIMITS,
	type SearchFilters,
} from '../../nodes/ContactData/shared/client/contract';
import {
	BENCH_KEY,
	WARMUP_CREDITS,
	WARMUP_KEY,
	keyFigures,
	median,
	writeItems,
} from '../lib/bench.cjs';
import {
	FLOOR_FORMULAS,
	fullRateFloorS,
	idleWindowFloorS,
	scheduleFloorS,
	searchFloorCalls,
	unlockFloorCalls,
} from '../lib/floors.cjs';
import {
	searchAllParameters,
	unlockFieldParameters,
	unlockParameters,
} from '../lib/nodeParameters.cjs';
import { apiHeaders, sendSequentially } from '../lib/plainClient.cjs';
import type { RecordedRequest } from '../lib/requestCapture.cjs';
import { ratio, round, type CaseResult, type Target } from '../lib/report.cjs';
import type { SandboxProcess } from '../lib/sandboxProcess.cjs';
import { inWorker } from '../lib/workerProcess.cjs';
import { contactIds, itemsWithRepeats, unlockFloorRequests } from './prepare.cjs';

interface RateLimitedRun {
	name: string;
	title: string;
	route: string;
	limit: number;
	floorCalls: number;
	/** The fewest calls, as a plain client sends them (for the latency floor). */
	floorRequests: (baseUrl: string) => Promise<RecordedRequest[]>;
	parameters: ReturnType<typeof unlockParameters>;
	/** The node's version (1 unless given). */
	typeVersion?: number;
	inputFile: string;
	/** A few of the items, run first in the same process so the measured run is warm. */
	warmupFile: string;
	/** The per-item parameter whose reading by n8n itself is timed (see ParameterProbe). */
	probeParameter?: string;
	/** Rounds of measurement; the median is reported. */
	repeats: number;
}

/** One plain-client latency run and one node run, each from a fresh sandbox state. */
async function measureOnce(sandbox: SandboxProcess, timeScale: number, run: RateLimitedRun) {
	const { admin, url } = sandbox;
	await admin.reset();
	await admin.setSettings({ time_scale: timeScale, rate_limits: false });
	const floorRequests = await run.floorRequests(url);
	const plain = await sendSequentially(url, floorRequests);
	if (plain.non_2xx > 0)
		throw new Error(`${run.name}: the plain client got ${plain.non_2xx} errors`);

	await admin.reset();
	await admin.setSettings({ time_scale: timeScale, rate_limits: true });
	await admin.setBalance(WARMUP_KEY, WARMUP_CREDITS);
	const node = await inWorker({
		kind: 'node',
		baseUrl: url,
		apiKey: BENCH_KEY,
		parameters: run.parameters,
		typeVersion: run.typeVersion,
		inputFile: run.inputFile,
		warmup: { inputFile: run.warmupFile, apiKey: WARMUP_KEY },
		probeParameter: run.probeParameter,
	});
	const counted = await keyFigures(admin, BENCH_KEY, run.route);
	return { node, ...counted, latencyS: plain.wall_s / floorRequests.length };
}

/**
 * `run.repeats` rounds (a busy machine makes single figures jumpy): the node run with the median
 * wall time is reported, against the median latency; calls, 429s and credits of every round count.
 */
async function measure(sandbox: SandboxProcess, timeScale: number, run: RateLimitedRun) {
	const rounds: Array<Awaited<ReturnType<typeof measureOnce>>> = [];
	for (let i = 0; i < run.repeats; i++) rounds.push(await measureOnce(sandbox, timeScale, run));
	const chosen = [...rounds].sort((a, b) => a.node.wall_s - b.node.wall_s)[
		Math.floor(rounds.length / 2)
	];
	const latencyS = median(rounds.map((r) => r.latencyS));
	const node = chosen.node;
	return {
		node,
		calls: Math.max(...rounds.map((r) => r.calls)),
		http_429: Math.max(...rounds.map((r) => r.http_429)),
		credits: chosen.credits,
		rounds: rounds.map((r) => ({
			calls: r.calls,
			http_429: r.http_429,
			credits: r.credits,
			wall_s: round(r.node.wall_s),
			latency_ms: round(r.latencyS * 1000, 2),
		})),
		latency_ms: round(latencyS * 1000, 2),
		floor_s: round(scheduleFloorS(run.floorCalls, run.limit, timeScale, latencyS)),
		full_rate_floor_s: round(fullRateFloorS(run.floorCalls, run.limit, timeScale)),
		idle_window_floor_s: round(idleWindowFloorS(run.floorCalls, run.limit, timeScale)),
		wall_s: round(node.wall_s),
		probe_s: node.probe_wall_s === undefined ? undefined : round(node.probe_wall_s),
	};
}

/** Where the node's time went, and the warm-up. */
function nodeDetails(m: Measured): string[] {
	const { http } = m.node;
	const probe =
		m.probe_s === undefined
			? []
			: [
					`n8n itself needs ${m.probe_s} s to read the per-item parameter for every item (a node doing nothing else); floor plus that: ${round(m.floor_s + m.probe_s)} s, ratio ${ratio(m.wall_s, m.floor_s + m.probe_s)}`,
				];
	return [
		...probe,
		`node run: ${http.before_first_call_s} s before its first call (reading and checking items), ${http.calls_span_s} s from its first call to its last answer, ${http.after_last_answer_s} s after (building output items)`,
		`measured warm: after a warm-up run of a few items in the same process with another key (${round(m.node.warmup_wall_s ?? 0)} s)`,
	];
}

function floorDefinition(run: RateLimitedRun, timeScale: number, m: Measured): string {
	const fits = run.floorCalls <= run.limit;
	return [
		`${run.floorCalls} calls, limit ${run.limit} per rolling minute = ${round(60 / timeScale)} s at scale ${timeScale}.`,
		fits
			? `They fit in one idle window, so the contract makes no call wait: the floor is latency-bound, ${run.floorCalls} x ${m.latency_ms} ms (a plain undici client sending the same calls back to back) = ${m.floor_s} s.`
			: `The fastest schedule from an idle window (bursts of ${run.limit}, one window apart) with ${m.latency_ms} ms a call = ${m.floor_s} s.`,
		`The full-rate figure (calls x 60 s / limit / scale, latency excluded) is ${m.full_rate_floor_s} s; ratio to it ${ratio(m.wall_s, m.full_rate_floor_s)}.`,
	].join(' ');
}

type Measured = Awaited<ReturnType<typeof measure>>;

/** The figures of a rate-limited case: shared targets and fields, plus the case's own. */
function result(
	run: RateLimitedRun,
	timeScale: number,
	m: Measured,
	own: { targets: Target[]; expectedOut: number; fields: Record<string, unknown> },
): CaseResult {
	const r = ratio(m.wall_s, m.floor_s);
	return {
		case: run.name,
		title: run.title,
		time_scale: timeScale,
		calls: m.calls,
		floor_calls: run.floorCalls,
		http_429: m.http_429,
		credits: m.credits,
		wall_s: m.wall_s,
		before_first_call_s: m.node.http.before_first_call_s,
		floor_s: m.floor_s,
		ratio: r,
		floor_definition: floorDefinition(run, timeScale, m),
		targets: [
			{
				name: 'calls = floor',
				met: m.calls === run.floorCalls,
				value: `${m.calls} of ${run.floorCalls}`,
			},
			{ name: 'zero 429s', met: m.http_429 === 0, value: String(m.http_429) },
			...own.targets,
			{ name: 'wall within 5% of the floor', met: r !== null && r <= 1.05, value: `ratio ${r}` },
			{
				name: `${own.expectedOut.toLocaleString('en-US')} items out, no error`,
				met: m.node.items_out === own.expectedOut && m.node.error_items === 0,
				value: `${m.node.items_out} out, ${m.node.error_items} errors${m.node.first_error ? ` (${m.node.first_error})` : ''}`,
			},
		],
		...own.fields,
		items_out: m.node.items_out,
		error_items: m.node.error_items,
		latency_ms: m.latency_ms,
		full_rate_floor_s: m.full_rate_floor_s,
		ratio_full_rate: ratio(m.wall_s, m.full_rate_floor_s),
		idle_window_floor_s: m.idle_window_floor_s,
		parameter_read_s: m.probe_s ?? null,
		ratio_floor_plus_parameter_read:
			m.probe_s === undefined ? null : ratio(m.wall_s, m.floor_s + m.probe_s),
		http_timeline: m.node.http,
		rounds: m.rounds,
		formulas: FLOOR_FORMULAS,
		details: nodeDetails(m),
	};
}

export async function unlockCase(
	sandbox: SandboxProcess,
	timeScale: number,
	options: { name: string; items: number; uniqueIds: number; repeats: number; version?: 1 | 2 },
): Promise<CaseResult> {
	await sandbox.admin.setSettings({ rate_limits: false });
	const byField = options.version === 2;
	const ids = await contactIds(sandbox.url, options.uniqueIds);
	const items = itemsWithRepeats(ids, options.items);
	const run: RateLimitedRun = {
		name: options.name,
		title: `Unlock v${options.version ?? 1}: ${options.items.toLocaleString('en-US')} input items holding ${options.uniqueIds.toLocaleString('en-US')} distinct ids, basic level, ids ${byField ? 'read from the id field of each item' : 'by the expression {{ $json.id }}'}`,
		route: `POST ${PATHS.unlock}`,
		limit: RATE_LIMITS.charged,
		floorCalls: unlockFloorCalls(options.uniqueIds),
		floorRequests: async () => unlockFloorRequests(items, BENCH_KEY),
		parameters: byField ? unlockFieldParameters(options.items) : unlockParameters(options.items),
		typeVersion: options.version ?? 1,
		probeParameter: byField ? 'contactIdField' : 'contactIds',
		repeats: options.repeats,
		inputFile: writeItems(options.name, items),
		warmupFile: writeItems(`${options.name}-warmup`, items.slice(0, 500)),
	};
	const m = await measure(sandbox, timeScale, run);
	return result(run, timeScale, m, {
		targets: [
			{
				name: `credits = ${options.uniqueIds}`,
				met: m.rounds.every((r) => r.credits === options.uniqueIds),
				value: m.rounds.map((r) => r.credits).join(', '),
			},
		],
		expectedOut: options.items,
		fields: { items_in: options.items, unique_ids: options.uniqueIds },
	});
}

interface SearchPage {
	results: unknown[];
	total: number;
	next_cursor: string | null;
	truncated: boolean;
}

/** The search calls of the floor: every page of each query, as a plain client follows the cursors. */
async function searchFloorRequests(
	baseUrl: string,
	queries: SearchFilters[],
): Promise<RecordedRequest[]> {
	const requests: RecordedRequest[] = [];
	for (const filters of queries) {
		let cursor: string | null = null;
		do {
			const entry: RecordedRequest = {
				method: 'POST',
				path: PATHS.search,
				headers: apiHeaders(BENCH_KEY, true),
				body: JSON.stringify({ filters, limit: 100, ...(cursor ? { cursor } : {}) }),
			};
			requests.push(entry);
			const answer = await request(`${baseUrl}${entry.path}`, {
				method: 'POST',
				headers: entry.headers,
				body: entry.body,
			});
			const page = (await answer.body.json()) as SearchPage;
			if (answer.statusCode !== 200) throw new Error(`search answered ${answer.statusCode}`);
			if (!cursor && page.total < 10_000) {
				throw new Error(
					`the bench filter ${JSON.stringify(filters)} matches only ${page.total} contacts`,
				);
			}
			cursor = page.next_cursor;
		} while (cursor);
	}
	return requests;
}

export async function searchCase(
	sandbox: SandboxProcess,
	timeScale: number,
	options: { name: string; countries: string[][]; repeats: number },
): Promise<CaseResult> {
	const queries = options.countries.map((country) => ({ country }));
	const floorCalls = queries.length * searchFloorCalls(10_000);
	const run: RateLimitedRun = {
		name: options.name,
		title: `Search, Return All: ${queries.length} ${queries.length === 1 ? 'query' : 'queries'} (countries ${options.countries.map((list) => list.join('+')).join('; ')}), each matching over 10,000 contacts; the API pages through the first 10,000`,
		route: `POST ${PATHS.search}`,
		limit: RATE_LIMITS.search,
		floorCalls,
		floorRequests: (baseUrl) => searchFloorRequests(baseUrl, queries),
		parameters: searchAllParameters(),
		inputFile: writeItems(
			options.name,
			options.countries.map((country) => ({ country })),
		),
		warmupFile: writeItems(`${options.name}-warmup`, [{ country: options.countries[0] }]),
		repeats: options.repeats,
	};
	const m = await measure(sandbox, timeScale, run);
	return result(run, timeScale, m, {
		targets: [
			{
				name: 'no credits (search is free)',
				met: m.rounds.every((r) => r.credits === 0),
				value: m.rounds.map((r) => r.credits).join(', '),
			},
		],
		expectedOut: queries.length * 10_000,
		fields: { queries: queries.length },
	});
}
