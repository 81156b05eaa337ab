/**
 * What each version changes; older versions keep their parameters, defaults and behaviour, since
 * saved workflows store neither defaults nor outputs.
 * - 2: per-item values read at a field of each item by default (perItemParameters.ts); no
 *   Additional Filters (JSON); as a tool, Search gives a page and Contact answers in one item.
 * - 2.1: Simplify gives at most 10 fields; a tool has Output instead of Simplify (items/simplify.ts);
 *   n8n's Fixed/Expression switch replaces "Contact IDs From" and "Person From".
 * - 2.2: Simplify on by default, with what the run cost; one Filters section (the API's other
 *   filters by name inside it); File Refund Claim takes its Contact ID Field as Unlock does.
 */
import type { IDisplayOptions, INode } from 'n8n-workflow';

export const VERSION_1 = { '@version': [1] };
export const VERSION_2 = { '@version': [2] };
export const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };
export const BEFORE_VERSION_2_1 = { '@version': [{ _cnd: { lt: 2.1 } }] };
export const FROM_VERSION_2_1 = { '@version': [{ _cnd: { gte: 2.1 } }] };
export const BEFORE_VERSION_2_2 = { '@version': [{ _cnd: { lt: 2.2 } }] };
export const FROM_VERSION_2_2 = { '@version': [{ _cnd: { gte: 2.2 } }] };

/** n8n offers the node to an AI agent as a copy named "…Tool", which `@tool` tells apart. */
export const ON_CANVAS = { '@tool': [false] };
export const AS_TOOL = { '@tool': [true] };

export const fromVersion2 = (node: INode) => node.typeVersion >= 2;
export const fromVersion2_1 = (node: INode) => node.typeVersion >= 2.1;
export const fromVersion2_2 = (node: INode) => node.typeVersion >= 2.2;
export const isToolCopy = (node: INode) => node.type.endsWith('Tool');

/** Narrowed by more conditions, all of which must hold. */
export function shownWhen(
	displayOptions: IDisplayOptions,
	...conditions: Array<Record<string, unknown[]>>
): IDisplayOptions {
	return {
		...displayOptions,
		show: Object.assign({}, displayOptions.show, ...conditions),
	} as IDisplayOptions;
}
