/**
 * The engine's and the node's own cost: the same search requests sent by the node inside
 * WorkflowExecute and by a plain undici loop, against a sandbox with no rate limits.
 *
 * The node runs on a few items first (warm-up, another key), then on all of them with its requests
 * recorded in process (method, path, headers, body). Then three rounds of: a plain undici loop
 * sending exactly those requests one at a time over one kept-alive connection, the same loop with a
 * new connection per request (as n8n's request helper opens one), and the node again. A busy
 * machine makes single figures jumpy; the case reports medians.
 */
import { sendSequentially, type PlainRunFigures } from '../lib/plainClient.cjs';
import { RequestCapture } from '../lib/requestCapture.cjs';
import { runContactDataNode, type NodeRunJob, type NodeRunResult } from './nodeRun.cjs';

export interface OverheadJob extends Omit<NodeRunJob, 'kind'> {
	kind: 'overhead';
}

export interface OverheadResult {
	node_runs: NodeRunResult[];
	plain_runs: PlainRunFigures[];
	plain_new_connection_runs: PlainRunFigures[];
	requests_recorded: number;
	distinct_bodies: number;
}

const ROUNDS = 3;

export async function runOverhead(job: OverheadJob): Promise<OverheadResult> {
	const capture = new RequestCapture();
	capture.start();
	let first: NodeRunResult;
	try {
		first = await runContactDataNode({ ...job, kind: 'node' });
	} finally {
		capture.stop();
	}
	// The warm-up's requests went first; the measured run's are the last ones.
	const requests = capture.recorded.slice(capture.recorded.length - first.http.requests);
	const nodeRuns = [first];
	const plain: PlainRunFigures[] = [];
	const fresh: PlainRunFigures[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		plain.push(await sendSequentially(job.baseUrl, requests));
		fresh.push(await sendSequentially(job.baseUrl, requests, { newConnectionEach: true }));
		if (round < ROUNDS - 1)
			nodeRuns.push(await runContactDataNode({ ...job, kind: 'node', warmup: undefined }));
	}
	return {
		node_runs: nodeRuns,
		plain_runs: plain,
		plain_new_connection_runs: fresh,
		requests_recorded: requests.length,
		distinct_bodies: new Set(requests.map((entry) => entry.body)).size,
	};
}
