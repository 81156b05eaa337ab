/**
 * What each version changes, in one place; older versions keep their parameters, defaults and
 * behaviour, since saved workflows store neither defaults nor outputs.
 * Version 2:
 * - Unlock, Enrich, Create (from contact IDs), Add and Remove Contacts read each item's values from
 *   a field of the item by default, an expression staying possible (perItemParameters.ts, read by
 *   items/perItemReaders.ts).
 * - Additional Filters (JSON) is gone: Additional Filters takes any filter by name.
 * - As an AI agent's tool, Search gives a page (Page Size, Cursor) instead of Return All and Limit,
 *   and the Contact operations answer in one compact item (agent/toolAnswer.ts).
 * Version 2.1 (n8n's guideline for outputs and field names):
 * - Simplify gives at most 10 fields, the id always kept (items/simplify.ts).
 * - As a tool, Output (Simplified, Raw, Selected Fields) replaces Simplify (items/simplify.ts,
 *   applied by agent/toolAnswer.ts).
 * - "Contact IDs From" and "Person From" are gone: n8n's Fixed/Expression switch on Contact ID
 *   Field, Email Field and LinkedIn URL Field chooses (perItemParameters.ts).
 * The display conditions below are how the editor tells the versions, and the canvas from a tool.
 */
import type { IDisplayOptions, INode, INodeProperties } from 'n8n-workflow';

export const VERSION_1 = { '@version': [1] };
export const VERSION_2 = { '@version': [2] };
export const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };
export const BEFORE_VERSION_2_1 = { '@version': [{ _cnd: { lt: 2.1 } }] };
export const FROM_VERSION_2_1 = { '@version': [{ _cnd: { gte: 2.1 } }] };

/** n8n offers the node to an AI agent as a copy named "…Tool", which `@tool` tells apart. */
export const ON_CANVAS = { '@tool': [false] };
export const AS_TOOL = { '@tool': [true] };

/** Whether the node reads its values the version 2 way. */
export function fromVersion2(node: INode): boolean {
	return node.typeVersion >= 2;
}

/** Whether the node is the copy n8n offers an AI agent (what `@tool` tells apart). */
export function isToolCopy(node: INode): boolean {
	return node.type.endsWith('Tool');
}

/** Whether the node works the version 2.1 way. */
export function fromVersion2_1(node: INode): boolean {
	return node.typeVersion >= 2.1;
}

/** `displayOptions` narrowed by more conditions (all of them must hold). */
export function shownWhen(
	displayOptions: IDisplayOptions,
	...conditions: Array<Record<string, unknown[]>>
): IDisplayOptions {
	return {
		...displayOptions,
		show: Object.assign({}, displayOptions.show, ...conditions),
	} as IDisplayOptions;
}

/**
 * A parameter with another default for an AI agent's tool. n8n has no default per use: it shows
 * the copy whose `@tool` condition holds, so this makes the two copies.
 */
export function withToolDefault(
	property: INodeProperties,
	toolDefault: INodeProperties['default'],
): INodeProperties[] {
	const displayOptions = property.displayOptions ?? {};
	return [
		{ ...property, displayOptions: shownWhen(displayOptions, ON_CANVAS) },
		{ ...property, default: toolDefault, displayOptions: shownWhen(displayOptions, AS_TOOL) },
	];
}
