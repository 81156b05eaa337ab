/**
 * The engine's and the node's own cost: the same search requests sent by the node inside
 * WorkflowExecute and by a plain undici loop, against a sandbox with no rate limits.
 *
 * 1. The node runs once through a recording proxy: a warm-up that also captures its requests.
 * 2. The plain loop sends exactly those requests (same paths, bodies, headers), one at a time.
 * 3. The node runs again, straight to the sandbox (the measured run).
 * 4. The plain loop runs again; the floor is the mean of its two runs (sandbox drift evens out).
 */
import { startRecordingProxy } from '../lib/recordingProxy';
import { sendSequentially, type PlainRunFigures } from '../lib/plainClient';
import { runContactDataNode, type NodeRunJob, type NodeRunResult } from './nodeRun';

export interface OverheadJob extends Omit<NodeRunJob, 'kind'> {
	kind: 'overhead';
}

export interface OverheadResult {
	node: NodeRunResult;
	warmup_node_wall_s: number;
	plain_runs: PlainRunFigures[];
	requests_recorded: number;
	distinct_bodies: number;
}

export async function runOverhead(job: OverheadJob): Promise<OverheadResult> {
	const proxy = await startRecordingProxy(job.baseUrl);
	let warmup: NodeRunResult;
	try {
		warmup = await runContactDataNode({ ...job, kind: 'node', baseUrl: proxy.url });
	} finally {
		await proxy.close();
	}
	const requests = proxy.recorded;
	const plainFirst = await sendSequentially(job.baseUrl, requests);
	const node = await runContactDataNode({ ...job, kind: 'node' });
	const plainSecond = await sendSequentially(job.baseUrl, requests);
	return {
		node,
		warmup_node_wall_s: warmup.wall_s,
		plain_runs: [plainFirst, plainSecond],
		requests_recorded: requests.length,
		distinct_bodies: new Set(requests.map((entry) => entry.body)).size,
	};
}
