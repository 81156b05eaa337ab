/** inPanelOrder: the operations' panels as n8n's one list of parameters. */
import type { INodeProperties } from 'n8n-workflow';

import { inPanelOrder } from '../../../../../nodes/ContactData/shared/parameters/panelOrder';

const parameter = (name: string): INodeProperties => ({
	displayName: name,
	name,
	type: 'string',
	default: '',
});
const [resource, listId, name, contactIds, level, notice] = [
	'resource',
	'listId',
	'name',
	'contactIds',
	'level',
	'notice',
].map(parameter);

it('lists a parameter several panels show once, and keeps every panel’s order', () => {
	const panels = [
		[resource, contactIds, level],
		[resource, name, contactIds],
		[resource, listId, contactIds, notice],
	];
	const merged = inPanelOrder(panels);
	expect(merged.map((property) => property.name).sort()).toEqual([
		'contactIds',
		'level',
		'listId',
		'name',
		'notice',
		'resource',
	]);
	for (const panel of panels) {
		const positions = panel.map((property) => merged.indexOf(property));
		expect(positions).toEqual([...positions].sort((a, b) => a - b));
	}
});

it('refuses panels that show shared parameters in different orders', () => {
	expect(() =>
		inPanelOrder([
			[name, contactIds],
			[contactIds, name],
		]),
	).toThrow(/show "(name|contactIds)" in different orders/);
});
