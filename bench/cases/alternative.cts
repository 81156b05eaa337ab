/**
 * Case 5: the same unlock job done the way users without this package do it, in the real n8n:
 * n8n's HTTP Request node, one POST /v1/unlock per item, configured as n8n's docs on rate limits
 * suggest (Batching: 1 item per batch, an interval that keeps to the API's rate; Retry On Fail on,
 * 3 tries, a wait between tries). Beside it, this package's node doing the same job in the same
 * n8n. Both run at one time scale, with the docs' intervals scaled by it (1,000 ms of real time is
 * 1000 / scale ms here), so the HTTP Request node keeps exactly the rate it would in production.
 */
import { PATHS, RATE_LIMITS } from '../../nodes/ContactData/shared/client/contract';
import { BENCH_KEY, keyFigures, secondsSince } from '../lib/bench.cjs';
import { fullRateFloorS, unlockFloorCalls } from '../lib/floors.cjs';
import { unlockParameters } from '../lib/nodeParameters.cjs';
import { RealN8n, RealN8nMissing, type ExecutionRun } from '../lib/realN8n.cjs';
import { ratio, round, type CaseResult } from '../lib/report.cjs';
import type { SandboxProcess } from '../lib/sandboxProcess.cjs';
import { contactIds, itemsWithRepeats } from './prepare.cjs';

const HEADER_CREDENTIAL = { id: 'benchHeaderAuth1', name: 'Contact Data key (header)' };
const PACKAGE_CREDENTIAL = { id: 'benchContactData1', name: 'Contact Data API (bench)' };
const WORKFLOW_HTTP = 'benchUnlockHttpReq';
const WORKFLOW_PACKAGE = 'benchUnlockPackage';
const UNLOCK_NODE = 'Unlock';

/** The docs' example for an API allowing one request a second; 60 a minute is that rate. */
const DOCS_BATCH_INTERVAL_MS = 1000;
const DOCS_WAIT_BETWEEN_TRIES_MS = 1000;
const DOCS_MAX_TRIES = 3;

function workflow(id: string, name: string, ids: string[], unlockNode: Record<string, unknown>) {
	const at = (x: number) => [x * 220, 0];
	return {
		id,
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${id}-1`,
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: at(0),
				parameters: {},
			},
			{
				id: `${id}-2`,
				name: 'Leads',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: at(1),
				parameters: { mode: 'raw', jsonOutput: JSON.stringify({ ids }), options: {} },
			},
			{
				id: `${id}-3`,
				name: 'One Item per Lead',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: at(2),
				parameters: { fieldToSplitOut: 'ids', options: { destinationFieldName: 'id' } },
			},
			{ id: `${id}-4`, name: UNLOCK_NODE, position: at(3), ...unlockNode },
		],
		connections: {
			Start: { main: [[{ node: 'Leads', type: 'main', index: 0 }]] },
			Leads: { main: [[{ node: 'One Item per Lead', type: 'main', index: 0 }]] },
			'One Item per Lead': { main: [[{ node: UNLOCK_NODE, type: 'main', index: 0 }]] },
		},
	};
}

function httpRequestNode(sandboxUrl: string, timeScale: number) {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${sandboxUrl}${PATHS.unlock}`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={ "ids": ["{{ $json.id }}"], "level": "basic" }',
			options: {
				batching: {
					batch: { batchSize: 1, batchInterval: Math.ceil(DOCS_BATCH_INTERVAL_MS / timeScale) },
				},
			},
		},
		credentials: { httpHeaderAuth: HEADER_CREDENTIAL },
		retryOnFail: true,
		maxTries: DOCS_MAX_TRIES,
		waitBetweenTries: Math.ceil(DOCS_WAIT_BETWEEN_TRIES_MS / timeScale),
	};
}

function packageNode(items: number) {
	return {
		type: 'n8n-nodes-contact-data.contactData',
		typeVersion: 1,
		parameters: unlockParameters(items),
		credentials: { contactDataApi: PACKAGE_CREDENTIAL },
	};
}

interface JobFigures {
	calls: number;
	http_429: number;
	credits: number;
	failed_items: number;
	items_out: number;
	wall_s: number | null;
	execute_command_s: number;
	error?: string;
}

async function runJob(
	n8n: RealN8n,
	sandbox: SandboxProcess,
	workflowId: string,
	items: number,
): Promise<JobFigures> {
	await sandbox.admin.reset();
	const started = process.hrtime.bigint();
	// No run data at all means n8n itself did not run the workflow: the case fails, it has no figures.
	const run: ExecutionRun = await n8n.execute(workflowId);
	const commandS = secondsSince(started);
	const counted = await keyFigures(sandbox.admin, BENCH_KEY, `POST ${PATHS.unlock}`);
	const task = run.data.resultData.runData[UNLOCK_NODE]?.at(-1);
	const output = task?.data?.main?.[0] ?? [];
	const failedInOutput = output.filter((item) => item.json.error !== undefined).length;
	const error = task?.error?.message ?? run.data.resultData.error?.message;
	return {
		...counted,
		// A node that fails stops the workflow: none of its items got through.
		failed_items: error !== undefined ? items : failedInOutput,
		items_out: output.length,
		// The node's own time as n8n recorded it (retries included); n8n's start-up is not counted.
		wall_s: task ? round(task.executionTime / 1000) : null,
		execute_command_s: round(commandS, 1),
		...(error !== undefined ? { error } : {}),
	};
}

export async function alternativeCase(
	sandbox: SandboxProcess,
	timeScale: number,
	options: { items: number; uniqueIds: number; latencyFloorS: number | null },
): Promise<CaseResult> {
	const floorCalls = unlockFloorCalls(options.uniqueIds);
	const fullRate = round(fullRateFloorS(floorCalls, RATE_LIMITS.charged, timeScale));
	const floorS = options.latencyFloorS;
	const base = {
		case: 'alternative',
		title: `The alternative: the unlock job (${options.items.toLocaleString('en-US')} items, ${options.uniqueIds.toLocaleString('en-US')} distinct ids) in the real n8n 2.41.1 with the HTTP Request node, one request per item, Batching 1 item per ${DOCS_BATCH_INTERVAL_MS} ms and Retry On Fail (${DOCS_MAX_TRIES} tries, ${DOCS_WAIT_BETWEEN_TRIES_MS} ms apart), as n8n's docs suggest, both intervals divided by the time scale`,
		time_scale: timeScale,
		floor_calls: floorCalls,
		floor_s: floorS,
		floor_definition: `the unlock job's floor: ${floorCalls} calls, latency-bound (they fit in one idle window; measured in the unlock case) = ${floorS} s; the full-rate figure is ${fullRate} s at this scale`,
	};
	let n8n: RealN8n;
	try {
		n8n = await RealN8n.create();
	} catch (error) {
		if (!(error instanceof RealN8nMissing)) throw error;
		return {
			...base,
			calls: null,
			http_429: null,
			credits: null,
			wall_s: null,
			ratio: null,
			targets: [],
			skipped: `${error.message}. The case runs once the real n8n is installed.`,
		};
	}
	await sandbox.admin.reset();
	await sandbox.admin.setSettings({ time_scale: timeScale, rate_limits: false });
	const ids = await contactIds(sandbox.url, options.uniqueIds);
	const leads = itemsWithRepeats(ids, options.items).map((item) => item.id);
	await sandbox.admin.setSettings({ time_scale: timeScale, rate_limits: true });

	await n8n.importJson('credentials', 'credentials', [
		{
			...HEADER_CREDENTIAL,
			type: 'httpHeaderAuth',
			data: { name: 'Authorization', value: `Bearer ${BENCH_KEY}` },
		},
		{
			...PACKAGE_CREDENTIAL,
			type: 'contactDataApi',
			data: { apiKey: BENCH_KEY, baseUrl: sandbox.url },
		},
	]);
	await n8n.importJson('workflow', 'workflows', [
		workflow(
			WORKFLOW_HTTP,
			'Bench: unlock with the HTTP Request node',
			leads,
			httpRequestNode(sandbox.url, timeScale),
		),
		workflow(
			WORKFLOW_PACKAGE,
			'Bench: unlock with Contact Data',
			leads,
			packageNode(options.items),
		),
	]);

	const pkg = await runJob(n8n, sandbox, WORKFLOW_PACKAGE, options.items);
	const http = await runJob(n8n, sandbox, WORKFLOW_HTTP, options.items);
	return {
		...base,
		calls: http.calls,
		http_429: http.http_429,
		credits: http.credits,
		wall_s: http.wall_s,
		ratio: ratio(http.wall_s, floorS),
		targets: [
			{
				name: 'this package needs fewer calls',
				met: pkg.calls < http.calls,
				value: `${pkg.calls} vs ${http.calls}`,
			},
			{
				name: 'this package is faster',
				met: pkg.wall_s !== null && http.wall_s !== null && pkg.wall_s < http.wall_s,
				value: `${pkg.wall_s} s vs ${http.wall_s} s`,
			},
		],
		failed_items: http.failed_items,
		items_out: http.items_out,
		ratio_full_rate: ratio(http.wall_s, fullRate),
		execute_command_s: http.execute_command_s,
		...(http.error ? { error: http.error } : {}),
		this_package: {
			...pkg,
			ratio: ratio(pkg.wall_s, floorS),
			ratio_full_rate: ratio(pkg.wall_s, fullRate),
		},
		details: [
			`HTTP Request node: ${http.calls} calls, ${http.http_429} 429s, ${http.failed_items} failed items, ${http.credits} credits, ${http.wall_s} s`,
			`this package:      ${pkg.calls} calls, ${pkg.http_429} 429s, ${pkg.failed_items} failed items, ${pkg.credits} credits, ${pkg.wall_s} s`,
		],
	};
}
