/**
 * Case 4: 10,000 items through Search with a Limit against a sandbox with no rate limits, the
 * node inside WorkflowExecute against a plain undici loop sending exactly the requests the node
 * sent (recorded through a pass-through proxy), one at a time as the node does.
 */
import { PATHS } from '../../nodes/ContactData/shared/client/contract';
import { BENCH_KEY, WARMUP_KEY, keyFigures, median, writeItems } from '../lib/bench.cjs';
import { searchLimitParameters } from '../lib/nodeParameters.cjs';
import { ratio, round, type CaseResult } from '../lib/report.cjs';
import type { SandboxProcess } from '../lib/sandboxProcess.cjs';
import { inWorker } from '../lib/workerProcess.cjs';

const TITLES = [
	'engineer',
	'sales',
	'marketing',
	'finance',
	'product',
	'design',
	'operations',
	'data',
];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'NL', 'ES', 'IN', 'BR'];
const TARGET = 1.2;

export async function overheadCase(
	sandbox: SandboxProcess,
	options: { items: number; limit: number },
): Promise<CaseResult> {
	const items = Array.from({ length: options.items }, (_, row) => ({
		row,
		title: [TITLES[row % TITLES.length]],
		country: [COUNTRIES[Math.floor(row / TITLES.length) % COUNTRIES.length]],
	}));
	await sandbox.admin.reset();
	await sandbox.admin.setSettings({ rate_limits: false });
	const result = await inWorker({
		kind: 'overhead',
		baseUrl: sandbox.url,
		apiKey: BENCH_KEY,
		parameters: searchLimitParameters(options.limit),
		inputFile: writeItems('overhead', items),
		warmup: { inputFile: writeItems('overhead-warmup', items.slice(0, 500)), apiKey: WARMUP_KEY },
	});
	const counted = await keyFigures(sandbox.admin, BENCH_KEY, `POST ${PATHS.search}`);
	await sandbox.admin.setSettings({ rate_limits: true });
	const nodeWalls = result.node_runs.map((run) => run.wall_s);
	const plainWalls = result.plain_runs.map((run) => run.wall_s);
	const freshWalls = result.plain_new_connection_runs.map((run) => run.wall_s);
	const wall = median(nodeWalls);
	const floor = median(plainWalls);
	const freshFloor = median(freshWalls);
	const r = ratio(wall, floor);
	const node = result.node_runs[0];
	const nodeCalls = result.requests_recorded;
	return {
		case: 'overhead',
		title: `Overhead: ${options.items.toLocaleString('en-US')} items through Search with Limit ${options.limit}, rate limits off, node in WorkflowExecute vs a plain undici loop of the same requests`,
		time_scale: null,
		calls: nodeCalls,
		floor_calls: options.items,
		http_429: counted.http_429,
		credits: counted.credits,
		wall_s: round(wall),
		floor_s: round(floor),
		ratio: r,
		floor_definition:
			'the median wall time of three runs of a plain undici loop over one kept-alive connection, sending exactly the requests the node sent (same paths, bodies and headers, one at a time, each JSON answer parsed); wall_s is the median of three node runs, interleaved with them',
		targets: [
			{ name: `wall ratio <= ${TARGET}`, met: r !== null && r <= TARGET, value: `ratio ${r}` },
			{ name: 'one call per item', met: nodeCalls === options.items, value: `${nodeCalls} calls` },
			{
				name: 'every request answered 2xx in the plain runs',
				met: result.plain_runs.every((run) => run.non_2xx === 0),
				value: result.plain_runs.map((run) => `${run.non_2xx} errors`).join(', '),
			},
		],
		route: `POST ${PATHS.search}`,
		items_out: node.items_out,
		error_items: node.error_items,
		node_wall_s: nodeWalls.map((value) => round(value)),
		plain_wall_s: plainWalls.map((value) => round(value)),
		plain_new_connection_wall_s: freshWalls.map((value) => round(value)),
		ratio_to_new_connection_loop: ratio(wall, freshFloor),
		http_timeline: node.http,
		distinct_bodies: result.distinct_bodies,
		per_item_ms: {
			node: round((wall / options.items) * 1000, 3),
			plain: round((floor / options.items) * 1000, 3),
			plain_new_connection: round((freshFloor / options.items) * 1000, 3),
		},
		details: [
			`per item: node ${round((wall / options.items) * 1000, 3)} ms, plain loop ${round((floor / options.items) * 1000, 3)} ms (one kept-alive connection), plain loop with a new connection per request ${round((freshFloor / options.items) * 1000, 3)} ms (ratio ${ratio(wall, freshFloor)}): n8n's request helper builds a new agent, so a new connection, for every request`,
			`measured warm: after a warm-up run of 500 items in the same process with another key (${round(node.warmup_wall_s ?? 0)} s); the first measured run's requests were recorded in process and replayed by the plain loops`,
		],
	};
}
