/**
 * Input items in, output items out: continueOnFail, pairedItem and item-indexed errors, the same
 * way for every operation.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type IPairedItemData,
} from 'n8n-workflow';

import { OperationError } from '../client/failures';
import { letOthersRun } from '../client/waits';

export type OperationExecute = (
	this: IExecuteFunctions,
	items: INodeExecutionData[],
) => Promise<INodeExecutionData[]>;

/**
 * A thrown value as an n8n error: an error of n8n's as it was built (naming its item then), anything
 * else (n8n's expression errors, a bug) wrapped, naming the item it was thrown for.
 */
export function asNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new OperationError(context, error instanceof Error ? error : String(error), { itemIndex });
}

/** The item continueOnFail puts in place of a failed one. */
export function errorItem(
	error: unknown,
	pairedItem: IPairedItemData | IPairedItemData[],
	extra: IDataObject = {},
): INodeExecutionData {
	const json: IDataObject = {
		...extra,
		error: error instanceof Error ? error.message : String(error),
	};
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.description) json.description = error.description;
		if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	}
	return { json, pairedItem };
}

export function pairedWith(itemIndexes: number[]): IPairedItemData[] {
	return itemIndexes.map((item) => ({ item }));
}

/**
 * How long items are read between two yields to the event loop: other executions in the process
 * (their calls, their pacing) go on between slices, and Stop ends a long read. By time, not by
 * count: n8n's expression engine may take half a millisecond an item, a field a microsecond, and
 * each yield costs a timer's millisecond.
 */
const SLICE_MS = 50;

/**
 * Checks every input item before anything is sent (a run that charges sends all items' calls
 * together). A refused item stops the node, or under continueOnFail is kept with its error.
 */
export async function checkEveryItem<T>(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	check: (itemIndex: number) => T,
): Promise<{ checked: T[]; refused: Map<number, Error> }> {
	const checked: T[] = [];
	const refused = new Map<number, Error>();
	let sliceEnd = Date.now() + SLICE_MS;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		if (Date.now() >= sliceEnd) {
			await letOthersRun(context, itemIndex);
			sliceEnd = Date.now() + SLICE_MS;
		}
		try {
			checked.push(check(itemIndex));
		} catch (error) {
			const failure = asNodeError(context, error, itemIndex);
			if (!context.continueOnFail()) throw failure;
			refused.set(itemIndex, failure);
		}
	}
	return { checked, refused };
}

/**
 * Runs `perItem` for each input item in order. Its JSON results become output items paired with
 * that item; a failure becomes an error item under continueOnFail, otherwise it stops the node.
 */
export async function forEachItem(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	perItem: (itemIndex: number) => Promise<IDataObject | IDataObject[] | INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await perItem(itemIndex);
			for (const entry of Array.isArray(result) ? result : [result]) {
				const item = isExecutionData(entry) ? entry : { json: entry };
				output.push({ ...item, pairedItem: { item: itemIndex } });
			}
		} catch (error) {
			const failure = asNodeError(context, error, itemIndex);
			if (!context.continueOnFail()) throw failure;
			output.push(errorItem(failure, { item: itemIndex }));
		}
	}
	return output;
}

function isExecutionData(entry: IDataObject | INodeExecutionData): entry is INodeExecutionData {
	return typeof entry.json === 'object' && entry.json !== null && !Array.isArray(entry.json);
}

/**
 * For an operation whose answer does not depend on the input item (Get Balance, Get Many): one call
 * for the whole run, its items paired with every input item, instead of the same call per item.
 */
export async function onceForAllItems(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	once: () => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	const pairedItem = pairedWith(items.map((_, itemIndex) => itemIndex));
	try {
		const result = await once();
		return (Array.isArray(result) ? result : [result]).map((json) => ({ json, pairedItem }));
	} catch (error) {
		if (!context.continueOnFail()) throw asNodeError(context, error);
		return [errorItem(error, pairedItem)];
	}
}

/** Whether any of these parameters is an expression (which may read the input item). */
export function usesExpression(context: IExecuteFunctions, names: string[]): boolean {
	const { parameters } = context.getNode();
	return names.some(
		(name) => typeof parameters[name] === 'string' && String(parameters[name]).startsWith('='),
	);
}
