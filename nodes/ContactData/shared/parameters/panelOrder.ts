/** The operations' panels as the node's one list (a shared parameter is one property), in order. */
import { ApplicationError, type INodeProperties } from 'n8n-workflow';

export function inPanelOrder(panels: INodeProperties[][]): INodeProperties[] {
	// What must come before each property: the one before it in each panel that lists it.
	const before = new Map<INodeProperties, INodeProperties[]>();
	for (const panel of panels) {
		panel.forEach((property, index) => {
			before.set(property, [
				...(before.get(property) ?? []),
				...panel.slice(Math.max(index - 1, 0), index),
			]);
		});
	}
	const ordered: INodeProperties[] = [];
	const placing = new Set<INodeProperties>();
	const place = (property: INodeProperties) => {
		if (ordered.includes(property)) return;
		if (placing.has(property)) {
			throw new ApplicationError(
				`Two operations show "${property.displayName}" in different orders`,
			);
		}
		placing.add(property);
		for (const earlier of before.get(property) ?? []) place(earlier);
		ordered.push(property);
	};
	for (const property of before.keys()) place(property);
	return ordered;
}
