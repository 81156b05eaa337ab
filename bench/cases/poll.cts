/**
 * The Contact Data Poll Trigger polling a saved list of 10,000 and of 100,000 members (the latter a
 * bulk export, streamed through its signed URL). Each size runs in a fresh worker process against
 * a sandbox process of that many contacts, the list holding all of them: the activation's baseline
 * poll, 100 sandbox job changes, then the poll that finds them. Targets (issue 21): a poll of
 * 100,000 members in 10 s or less, 100 MB or less above idle, 64 bytes of state or less a member.
 * The floor is a plain undici client downloading the same export (same fields) to the end.
 */
import { request } from 'undici';

import { PATHS } from '../../nodes/ContactData/shared/client/contract';
import { EXPORTED_FIELDS, MAX_WATCHED_MEMBERS } from '../../nodes/ContactData/pollTrigger/poll';
import { call } from '../../test/harness/api';
import { BENCH_KEY, secondsSince } from '../lib/bench.cjs';
import { ratio, round, type CaseResult } from '../lib/report.cjs';
import { startSandboxProcess } from '../lib/sandboxProcess.cjs';
import { inWorker } from '../lib/workerProcess.cjs';

const CHANGES = 100;
const TARGETS = { wall_s: 10, growth_mb: 100, bytes_per_member: 64 };

async function plainDownload(baseUrl: string, listId: string): Promise<number> {
	const started = process.hrtime.bigint();
	const answer = await call(
		baseUrl,
		'POST',
		PATHS.listExport(listId),
		{ format: 'json', fields: EXPORTED_FIELDS },
		{ key: BENCH_KEY },
	);
	if (answer.status === 202) {
		const download = await request((answer.body as { url: string }).url);
		for await (const _chunk of download.body) void _chunk;
	} else if (answer.status !== 200) throw new Error(`export answered ${answer.status}`);
	return secondsSince(started);
}

async function pollSize(members: number) {
	const sandbox = await startSandboxProcess({ contacts: members });
	try {
		const created = await call(
			sandbox.url,
			'POST',
			PATHS.lists,
			{ name: `Poll ${members}`, filters: {} },
			{ key: BENCH_KEY },
		);
		const { id: listId, contact_count: count } = created.body as {
			id: string;
			contact_count: number;
		};
		const floor = await plainDownload(sandbox.url, listId);
		const run = await inWorker({
			kind: 'poll',
			baseUrl: sandbox.url,
			apiKey: BENCH_KEY,
			listId,
			changes: CHANGES,
		});
		return {
			members: count,
			baseline_poll_s: round(run.baseline_poll_s),
			change_poll_s: round(run.change_poll_s),
			floor_s: round(floor),
			emitted: run.emitted,
			state_bytes: run.state_bytes,
			state_bytes_per_member: round(run.state_bytes / count),
			idle_rss_mb: run.memory.idle_rss_mb,
			peak_rss_mb: run.memory.peak_rss_mb,
			growth_mb: run.memory.growth_mb,
		};
	} finally {
		await sandbox.close();
	}
}

export async function pollCase(sizes: number[]): Promise<CaseResult> {
	const bySize = [];
	for (const size of sizes) bySize.push(await pollSize(size));
	const largest = bySize[bySize.length - 1];
	return {
		case: 'poll',
		title: `Poll Trigger: saved lists of ${sizes.map((size) => size.toLocaleString('en-US')).join(' and ')} members, ${CHANGES} job changes found`,
		time_scale: null,
		calls: null,
		floor_calls: null,
		http_429: null,
		credits: 0,
		wall_s: largest.change_poll_s,
		floor_s: largest.floor_s,
		ratio: ratio(largest.change_poll_s, largest.floor_s),
		floor_definition:
			'a plain undici client downloading the same JSON export (same fields, through the signed URL for 100,000) to its end',
		targets: [
			{
				name: `a poll in ${TARGETS.wall_s} s or less`,
				met: bySize.every(
					(s) => s.change_poll_s <= TARGETS.wall_s && s.baseline_poll_s <= TARGETS.wall_s,
				),
				value: bySize
					.map(
						(s) =>
							`${s.members}: ${s.baseline_poll_s} s baseline, ${s.change_poll_s} s with changes`,
					)
					.join('; '),
			},
			{
				name: `${TARGETS.growth_mb} MB or less above idle`,
				met: bySize.every((s) => s.growth_mb <= TARGETS.growth_mb),
				value: bySize.map((s) => `${s.members}: +${s.growth_mb} MB`).join('; '),
			},
			{
				name: `${TARGETS.bytes_per_member} bytes of state or less a member`,
				met: bySize.every((s) => s.state_bytes_per_member <= TARGETS.bytes_per_member),
				value: bySize.map((s) => `${s.members}: ${s.state_bytes_per_member} B`).join('; '),
			},
			{
				name: `every change emitted once`,
				met: bySize.every((s) => s.emitted === CHANGES),
				value: bySize.map((s) => `${s.members}: ${s.emitted}`).join('; '),
			},
		],
		largest_accepted_list: MAX_WATCHED_MEMBERS,
		by_size: bySize,
		units:
			'memory MB = 2^20 bytes (resident set of the worker process over both polls); state = JSON bytes of the saved static data',
	};
}
