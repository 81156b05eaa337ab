/** What both triggers watch: Events, and Saved Lists to Watch; as chosen or from an expression. */
import type { INode, INodeProperties } from 'n8n-workflow';

import { ID_PREFIXES, LIST_ID_PATTERN } from '../client/contract';
import { OperationError } from '../client/failures';
import { savedListPicker } from './descriptions';

/** In the order offered, without repeats; `elsewhere` says where the others come from. */
export function toEventTypes<T extends string>(
	node: INode,
	value: unknown,
	offered: readonly T[],
	elsewhere?: string,
): T[] {
	const given = (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((entry) => String(entry).trim())
		.filter((entry) => entry !== '');
	const unknown = given.find((entry) => !(offered as readonly string[]).includes(entry));
	if (unknown !== undefined || given.length === 0) {
		const message =
			unknown !== undefined
				? `Unknown event "${unknown}" in "Events"`
				: 'Choose at least one event in "Events"';
		throw new OperationError(node, message, {
			description: `Events must be among: ${offered.join(', ')}${elsewhere ? ` (${elsewhere})` : ''}.`,
		});
	}
	return offered.filter((type) => given.includes(type));
}

/** n8n never shows a fixedCollection's hint: a hint goes under each saved list picked. */
export function savedListsToWatch(description: string, hint?: string): INodeProperties {
	const picker = savedListPicker('savedList');
	return {
		displayName: 'Saved Lists to Watch',
		name: 'lists',
		type: 'fixedCollection',
		placeholder: 'Add Saved List',
		default: {},
		typeOptions: { multipleValues: true },
		description,
		options: [
			{
				displayName: 'Saved List',
				name: 'list',
				values: [hint === undefined ? picker : { ...picker, hint }],
			},
		],
	};
}

/** Sorted; `null` when none is chosen. */
export function toListIds(node: INode, entries: unknown): string[] | null {
	const ids = (Array.isArray(entries) ? entries : []).map((entry, index) => {
		const locator = (entry as { savedList?: unknown } | null)?.savedList;
		const raw =
			typeof locator === 'object' && locator !== null
				? (locator as { value?: unknown }).value
				: locator;
		const id = String(raw ?? '').trim();
		if (!LIST_ID_PATTERN.test(id)) {
			throw new OperationError(
				node,
				`Saved list ${index + 1} in "Saved Lists to Watch" is ${id ? `"${id}", not a saved list ID` : 'empty'}`,
				{ description: `Pick a saved list, or enter its ID (it starts with ${ID_PREFIXES.list}).` },
			);
		}
		return id;
	});
	return ids.length > 0 ? [...new Set(ids)].sort() : null;
}
