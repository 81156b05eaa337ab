/** The runs a bench worker process can do. */
import { runOverhead, type OverheadJob, type OverheadResult } from './overhead.cjs';
import { runContactDataNode, type NodeRunJob, type NodeRunResult } from './nodeRun.cjs';
import { runPoll, type PollRunJob, type PollRunResult } from './pollRun.cjs';

export type Job = NodeRunJob | OverheadJob | PollRunJob;
export type { NodeRunJob, NodeRunResult, OverheadJob, OverheadResult, PollRunJob, PollRunResult };

export async function runJob(job: Job): Promise<NodeRunResult | OverheadResult | PollRunResult> {
	switch (job.kind) {
		case 'node':
			return await runContactDataNode(job);
		case 'overhead':
			return await runOverhead(job);
		case 'poll':
			return await runPoll(job);
	}
}
