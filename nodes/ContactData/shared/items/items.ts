/** Input items in, output items out: continueOnFail, pairedItem and item-indexed errors. */
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

/** n8n's errors as built; anything else (an expression error, a bug) wrapped, for its item. */
export function asNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new OperationError(context, error instanceof Error ? error : String(error), { itemIndex });
}

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
 * Items are read in slices of this many milliseconds: between slices other executions in the
 * process go on, and Stop ends a long read. By time, not count: an expression may take half a
 * millisecond an item, a field a microsecond, and each yield costs a timer's millisecond.
 */
const SLICE_MS = 50;

/** Before anything is sent: a charging run sends all items' calls together. */
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

/** A failure becomes an error item under continueOnFail, otherwise it stops the node. */
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

/** For an answer that does not depend on the input item (Get Balance, Get Many): one call a run. */
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

/** An expression may read the input item. */
export function usesExpression(context: IExecuteFunctions, names: string[]): boolean {
	const { parameters } = context.getNode();
	return names.some(
		(name) => typeof parameters[name] === 'string' && String(parameters[name]).startsWith('='),
	);
}
