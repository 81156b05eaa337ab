/**
 * The engine's and the node's own cost: the same search requests sent by the node inside
 * WorkflowExecute and by a plain undici loop, against a sandbox with no rate limits.
 *
 * 1. The node runs on a few items first (warm-up), then on all of them (the measured run), its
 *    requests recorded in process (method, path, headers, body).
 * 2. A plain undici loop sends exactly those requests one at a time, twice; the floor is the mean.
 * Beside each plain run, the same loop with a new connection per request, as n8n's request helper
 * opens one: the share of the overhead that is n8n's connection handling.
 */
import { sendSequentially, type PlainRunFigures } from '../lib/plainClient';
import { RequestCapture } from '../lib/requestCapture';
import { runContactDataNode, type NodeRunJob, type NodeRunResult } from './nodeRun';

export interface OverheadJob extends Omit<NodeRunJob, 'kind'> {
	kind: 'overhead';
}

export interface OverheadResult {
	node: NodeRunResult;
	plain_runs: PlainRunFigures[];
	plain_new_connection_runs: PlainRunFigures[];
	requests_recorded: number;
	distinct_bodies: number;
}

export async function runOverhead(job: OverheadJob): Promise<OverheadResult> {
	const capture = new RequestCapture();
	capture.start();
	let node: NodeRunResult;
	try {
		node = await runContactDataNode({ ...job, kind: 'node' });
	} finally {
		capture.stop();
	}
	// The warm-up's requests went first; the measured run's are the last ones.
	const requests = capture.recorded.slice(capture.recorded.length - node.http.requests);
	const plain: PlainRunFigures[] = [];
	const fresh: PlainRunFigures[] = [];
	for (let round = 0; round < 2; round++) {
		plain.push(await sendSequentially(job.baseUrl, requests));
		fresh.push(await sendSequentially(job.baseUrl, requests, { newConnectionEach: true }));
	}
	return {
		node,
		plain_runs: plain,
		plain_new_connection_runs: fresh,
		requests_recorded: requests.length,
		distinct_bodies: new Set(requests.map((entry) => entry.body)).size,
	};
}
