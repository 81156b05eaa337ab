/**
 * What n8n keeps in its database for a workflow that the trigger relies on: the saved static data,
 * and the `processed_data` rows behind `this.helpers.checkProcessedAndRecord`. Several TriggerHosts
 * (n8n processes) given the same Database share both, as n8n's main, webhook processors and workers
 * share one Postgres.
 *
 * n8n-core's DataDeduplicationService is a process-wide singleton whose storage n8n (the CLI
 * package) provides; `DatabaseDeduplicator` plays that part with n8n 2.41.1's own rules for the
 * `entries` mode (md5 of each value, scope by node id or workflow, oldest dropped beyond
 * `maxEntries`) and its read-then-write without a lock (concurrent executions can overwrite each
 * other's records; two first inserts collide), so the node's calls go through n8n-core's real helper.
 */
import { createHash, randomUUID } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import {
	sleep,
	type DeduplicationItemTypes,
	type DeduplicationScope,
	type ICheckProcessedContextData,
	type ICheckProcessedOptions,
	type IDataDeduplicator,
	type IDataObject,
	type IDeduplicationOutput,
} from 'n8n-workflow';

export class Database {
	readonly workflowId = `wf-${randomUUID()}`;
	staticData: IDataObject = {};
	/** `processed_data.value.data` by context (`n:<node id>` or '' for the workflow). */
	readonly processedData = new Map<string, string[]>();
}

/** Between n8n's read of a `processed_data` row and its write, as over a network to Postgres. */
const ROUND_TRIP_MS = 5;

const databases = new Map<string, Database>();

function hashOf(value: DeduplicationItemTypes): string {
	return createHash('md5').update(value.toString()).digest('base64');
}

function contextOf(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
	if (scope !== 'node') return '';
	if (!contextData.node)
		throw new Error("No node information has been provided and so cannot use scope 'node'");
	return `n:${contextData.node.id}`;
}

class DatabaseDeduplicator implements IDataDeduplicator {
	private rows(contextData: ICheckProcessedContextData): Map<string, string[]> {
		const database = databases.get(String(contextData.workflow.id));
		if (!database) throw new Error(`No database for workflow ${contextData.workflow.id}`);
		return database.processedData;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		if (options.mode !== 'entries')
			throw new Error(`The harness stores mode "entries" only, not "${options.mode}"`);
		const rows = this.rows(contextData);
		const context = contextOf(scope, contextData);
		// n8n reads the row, decides, then inserts or updates it: two round trips, no lock.
		const stored = rows.has(context) ? [...rows.get(context)!] : undefined;
		await sleep(ROUND_TRIP_MS);
		const hashes = items.map(hashOf);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		const data = stored ?? [];
		const seen = new Set(data);
		hashes.forEach((hash, index) => {
			if (stored && seen.has(hash)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				data.push(hash);
			}
		});
		if (options.maxEntries) data.splice(0, data.length - options.maxEntries);
		if (!stored && rows.has(context)) {
			throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
		}
		rows.set(context, data);
		return output;
	}

	async removeProcessed(): Promise<void> {
		throw new Error('removeProcessed is not used by these nodes');
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.rows(contextData).delete(contextOf(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<number> {
		return this.rows(contextData).get(contextOf(scope, contextData))?.length ?? 0;
	}
}

let initialised = false;

/** Registers a database so executions of its workflow can use `checkProcessedAndRecord`. */
export async function connectDatabase(database: Database): Promise<void> {
	databases.set(database.workflowId, database);
	if (initialised) return;
	initialised = true;
	await DataDeduplicationService.init(new DatabaseDeduplicator());
}
