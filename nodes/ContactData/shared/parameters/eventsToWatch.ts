/** Both triggers' Events: as chosen, or as an expression gave them (an array or comma-separated text). */
import type { INode } from 'n8n-workflow';

import { OperationError } from '../client/failures';

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
