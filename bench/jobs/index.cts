/** The runs a bench worker process can do. */
import { runOverhead, type OverheadJob, type OverheadResult } from './overhead.cjs';
import { runContactDataNode, type NodeRunJob, type NodeRunResult } from './nodeRun.cjs';

export type Job = NodeRunJob | OverheadJob;
export type { NodeRunJob, NodeRunResult, OverheadJob, OverheadResult };

export async function runJob(job: Job): Promise<NodeRunResult | OverheadResult> {
	switch (job.kind) {
		case 'node':
			return await runContactDataNode(job);
		case 'overhead':
			return await runOverhead(job);
	}
}
