/**
 * Runs the Contact Data node once inside n8n-core's WorkflowExecute (the project's engine harness)
 * against a sandbox, and reports the time, the output and, if asked, the memory of this process.
 */
import { readFileSync } from 'node:fs';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ContactDataApi } from '../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../nodes/ContactData/ContactData.node';
import { runNode } from '../../test/harness/engine';
import { secondsSince } from '../lib/bench.cjs';
import { useFilesystemBinaryData } from '../lib/binaryData.cjs';
import { HttpTimeline, type HttpTimelineFigures } from '../lib/httpTimeline.cjs';
import { PeakMemory, type MemoryFigures } from '../lib/memory.cjs';
import { ParameterProbe } from '../lib/probeNode.cjs';

export interface NodeRunJob {
	kind: 'node';
	baseUrl: string;
	apiKey: string;
	parameters: INodeParameters;
	/** The node's version; 1 when absent (the version the bench's parameters were written for). */
	typeVersion?: number;
	/** A JSON file holding the input items' `json` objects; one empty item when absent. */
	inputFile?: string;
	/** Store binary data on disk here, as n8n's filesystem mode does; in memory when absent. */
	binaryDataPath?: string;
	measureMemory?: boolean;
	continueOnFail?: boolean;
	/**
	 * Run the node once on these items first, so the measured run finds a warm process as in a
	 * long-running n8n. With another key: its rate windows (the sandbox's and the node's) and its
	 * ledger are its own, so the measured run starts from an idle window and counts alone.
	 */
	warmup?: { inputFile: string; apiKey: string };
	/**
	 * Also time a node that only reads this parameter of the job for every input item: n8n's own
	 * per-item cost, which any node reading it pays.
	 */
	probeParameter?: string;
}

export interface NodeRunResult {
	wall_s: number;
	/** CPU time (user + system) of this process during the measured run. */
	cpu_s: number;
	items_out: number;
	error_items: number;
	first_error?: string;
	binary: Array<{ bytes: number; mime_type: string; file_name?: string; stored: string }>;
	memory?: MemoryFigures;
	http: HttpTimelineFigures;
	warmup_wall_s?: number;
	/** The probe's time for reading `probeParameter` on every input item. */
	probe_wall_s?: number;
}

export function readInputItems(file: string | undefined): INodeExecutionData[] {
	if (!file) return [{ json: {} }];
	return (JSON.parse(readFileSync(file, 'utf8')) as IDataObject[]).map((json) => ({ json }));
}

function run(job: NodeRunJob, inputItems: INodeExecutionData[], apiKey = job.apiKey) {
	return runNode({
		nodeType: new ContactData(),
		typeVersion: job.typeVersion ?? 1,
		parameters: job.parameters,
		credentialTypes: [new ContactDataApi()],
		credentials: { contactDataApi: { apiKey, baseUrl: job.baseUrl } },
		inputItems,
		continueOnFail: job.continueOnFail,
	});
}

export async function runContactDataNode(job: NodeRunJob): Promise<NodeRunResult> {
	if (job.binaryDataPath) await useFilesystemBinaryData(job.binaryDataPath);
	let warmupWall: number | undefined;
	if (job.warmup) {
		const warmupStarted = process.hrtime.bigint();
		await run(job, readInputItems(job.warmup.inputFile), job.warmup.apiKey);
		warmupWall = secondsSince(warmupStarted);
	}
	// Before the measured run, warm like it; the fastest of three runs, as machine load only slows.
	let probeWall: number | undefined;
	if (job.probeParameter) {
		const probeItems = readInputItems(job.inputFile);
		for (let round = 0; round < 3; round++) {
			const probeStarted = process.hrtime.bigint();
			await runNode({
				nodeType: new ParameterProbe(),
				parameters: { value: job.parameters[job.probeParameter] },
				inputItems: probeItems,
			});
			probeWall = Math.min(probeWall ?? Infinity, secondsSince(probeStarted));
		}
	}
	const inputItems = readInputItems(job.inputFile);
	const memory = job.measureMemory ? new PeakMemory() : undefined;
	const timeline = new HttpTimeline();
	memory?.start();
	timeline.start();
	const started = process.hrtime.bigint();
	const cpuBefore = process.cpuUsage();
	const { items, error } = await run(job, inputItems);
	const cpu = process.cpuUsage(cpuBefore);
	const ended = process.hrtime.bigint();
	const http = timeline.stop(started, ended);
	const wall_s = Number(ended - started) / 1e9;
	const memoryFigures = memory?.stop();
	const errorItems = items.filter(
		(item) => item.error !== undefined || item.json.error !== undefined,
	);
	const firstError = error?.message ?? describeError(errorItems[0]);
	return {
		wall_s,
		cpu_s: (cpu.user + cpu.system) / 1e6,
		items_out: items.length,
		error_items: error ? inputItems.length : errorItems.length,
		...(firstError ? { first_error: firstError } : {}),
		binary: items.flatMap((item) =>
			Object.values(item.binary ?? {}).map((binary) => ({
				bytes: binary.bytes ?? 0,
				mime_type: binary.mimeType,
				file_name: binary.fileName,
				stored: binary.id ? 'disk' : 'memory',
			})),
		),
		...(memoryFigures ? { memory: memoryFigures } : {}),
		http,
		...(warmupWall !== undefined ? { warmup_wall_s: warmupWall } : {}),
		...(probeWall !== undefined ? { probe_wall_s: probeWall } : {}),
	};
}

function describeError(item: INodeExecutionData | undefined): string | undefined {
	if (!item) return undefined;
	if (item.error) return item.error.message;
	const error = item.json.error;
	return typeof error === 'string' ? error : JSON.stringify(error);
}
