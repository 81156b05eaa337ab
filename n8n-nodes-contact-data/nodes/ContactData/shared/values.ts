/**
 * Parameter values as users give them: typed in, or set by expressions that yield arrays,
 * comma-separated strings or single values. Checked against the contract's zod schemas before
 * anything is sent, so bad input costs nothing and names its parameter.
 */
import {
	NodeOperationError,
	type IExecuteFunctions,
	type INode,
} from 'n8n-workflow';
import type { z, ZodIssue, ZodTypeAny } from 'zod';

import { ID_PREFIXES } from './contract';

/** A list of trimmed, non-empty strings from an array, a comma-separated string or one value. */
export function toStringList(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const parts = Array.isArray(value)
		? value.flatMap((entry) => toStringList(entry))
		: typeof value === 'string'
			? value.split(',')
			: [String(value)];
	return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/**
 * Contact ids from a parameter value: one id, an array of ids (or of contact objects with an `id`),
 * or comma-separated ids.
 */
export function toContactIds(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap((entry) => toContactIds(entry));
	if (value && typeof value === 'object' && 'id' in value) {
		return toContactIds((value as { id: unknown }).id);
	}
	return toStringList(value);
}

/** Fails with the item index when an id is not a contact id; nothing has been sent yet. */
export function checkContactIds(
	node: INode,
	ids: string[],
	parameterName: string,
	itemIndex: number,
): string[] {
	if (ids.length === 0) {
		throw new NodeOperationError(node, `${parameterName} is empty [item ${itemIndex}]`, {
			itemIndex,
			description: 'Give a contact id (ct_…), an array of ids, or ids separated by commas.',
		});
	}
	const bad = ids.find((id) => !id.startsWith(ID_PREFIXES.contact));
	if (bad !== undefined) {
		throw new NodeOperationError(
			node,
			`${parameterName}: "${bad}" is not a contact id (ct_…) [item ${itemIndex}]`,
			{ itemIndex, description: 'Contact ids come from Contact → Search results (the id field).' },
		);
	}
	return ids;
}

/** Unique values in first-seen order. */
export function unique<T>(values: Iterable<T>): T[] {
	return [...new Set(values)];
}

export function chunk<T>(values: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < values.length; start += size) chunks.push(values.slice(start, start + size));
	return chunks;
}

/**
 * Checks a request body with the contract's schema. A zod issue becomes a NodeOperationError naming
 * the node parameter behind the body field (`parameterNames` maps body paths to display names).
 */
export function checkBody<Schema extends ZodTypeAny>(
	context: IExecuteFunctions,
	schema: Schema,
	body: unknown,
	itemIndex: number,
	parameterNames: Record<string, string>,
): z.output<Schema> {
	const result = schema.safeParse(body);
	if (result.success) return result.data as z.output<Schema>;
	const issue = result.error.issues[0];
	const path = issue.path.join('.');
	throw new NodeOperationError(
		context.getNode(),
		`${parameterFor(issue, parameterNames)}: ${issue.message} [item ${itemIndex}]`,
		{
			itemIndex,
			description: `The value for ${path || 'the request'} was refused before anything was sent.`,
		},
	);
}

function parameterFor(issue: ZodIssue, parameterNames: Record<string, string>): string {
	// The longest path prefix that names a parameter ("filters.seniority.0" -> "filters.seniority").
	for (let length = issue.path.length; length > 0; length--) {
		const name = parameterNames[issue.path.slice(0, length).join('.')];
		if (name) return name;
	}
	return issue.path.length ? `Parameter "${issue.path.join('.')}"` : 'Request';
}
