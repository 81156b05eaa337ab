/**
 * Runs the Contact Data Poll Trigger through n8n-core's PollContext (the project's poll harness)
 * against a sandbox: the activation's baseline poll of a list, then, after sandbox job changes, the
 * poll that finds them. Reports each poll's time, this process's memory above idle over both, and
 * the saved state's bytes per member.
 */
import { ContactDataApi } from '../../credentials/ContactDataApi.credentials';
import { ContactDataPollTrigger } from '../../nodes/ContactData/ContactDataPollTrigger.node';
import { PollHost } from '../../test/harness/poll';
import { sandboxAdmin } from '../../test/harness/sandbox';
import { secondsSince } from '../lib/bench.cjs';
import { PeakMemory, type MemoryFigures } from '../lib/memory.cjs';

export interface PollRunJob {
	kind: 'poll';
	baseUrl: string;
	apiKey: string;
	listId: string;
	/** Sandbox job changes made between the baseline poll and the measured poll. */
	changes: number;
}

export interface PollRunResult {
	baseline_poll_s: number;
	change_poll_s: number;
	emitted: number;
	state_bytes: number;
	memory: MemoryFigures;
}

export async function runPoll(job: PollRunJob): Promise<PollRunResult> {
	const host = new PollHost({
		nodeType: new ContactDataPollTrigger(),
		parameters: {
			events: ['job_change', 'role_change'],
			lists: { list: [{ savedList: { __rl: true, mode: 'id', value: job.listId } }] },
			options: {},
		},
		credentialTypes: [new ContactDataApi()],
		credentials: { contactDataApi: { apiKey: job.apiKey, baseUrl: job.baseUrl } },
	});
	const memory = new PeakMemory();
	memory.start();
	let started = process.hrtime.bigint();
	const baseline = await host.activate();
	const baselinePollS = secondsSince(started);
	if (baseline !== null) throw new Error('the baseline poll emitted');
	await sandboxAdmin(job.baseUrl).emitEvents({
		type: 'job_change',
		list_id: job.listId,
		count: job.changes,
		key: job.apiKey,
	});
	started = process.hrtime.bigint();
	const found = await host.tick();
	const changePollS = secondsSince(started);
	return {
		baseline_poll_s: baselinePollS,
		change_poll_s: changePollS,
		emitted: found?.[0].length ?? 0,
		state_bytes: host.savedBytes(),
		memory: memory.stop(),
	};
}
