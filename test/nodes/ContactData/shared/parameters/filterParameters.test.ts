/**
 * n8n's open-ended-node-fields rule: no optional JSON field from version 2 on; version 1 keeps its
 * field. From 2.2 one Filters section, the API's other filters by name inside it.
 */
import { NodeHelpers, type INodeProperties } from 'n8n-workflow';

import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';

const description = new ContactData().description;

/** The parameters the editor shows for these values in this version, as n8n decides it. */
function shownIn(typeVersion: number, values: { resource: string; operation: string }) {
	const nodeValues = { ...values, createFrom: 'filters' };
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(nodeValues, property, { typeVersion }, description),
	);
}

it.each([
	{ resource: 'contact', operation: 'search' },
	{ resource: 'savedList', operation: 'create' },
])(
	'$resource → $operation: version 1 keeps Additional Filters (JSON); version 2 takes further filters by name only',
	(values) => {
		const names = (typeVersion: number) =>
			shownIn(typeVersion, values).map((property) => property.displayName);
		expect(names(1)).toEqual(
			expect.arrayContaining(['Additional Filters', 'Additional Filters (JSON)']),
		);
		expect(names(2)).toContain('Additional Filters');
		expect(names(2)).not.toContain('Additional Filters (JSON)');
		expect(names(2.1)).toEqual(names(2));
		expect(shownIn(2, values).filter((property) => property.type === 'json')).toEqual([]);
	},
);

it.each([
	{ resource: 'contact', operation: 'search' },
	{ resource: 'savedList', operation: 'create' },
])(
	'$resource → $operation, version 2.2: one Filters section, the API’s other filters in it',
	(values) => {
		const sections = shownIn(2.2, values).filter(({ displayName }) => /Filter/.test(displayName));
		expect(sections.map(({ displayName }) => displayName)).toEqual(['Filters']);
		const options = sections[0].options as INodeProperties[];
		const other = options.find(({ name }) => name === 'otherFilters');
		expect(other).toMatchObject({
			displayName: 'Other Filters by API Name',
			type: 'fixedCollection',
		});
		expect(other?.hint).toMatch(/by its name as the Contact Data API reference lists it/);
		// Every filter version 2.1 names is still there, beside it.
		const before = shownIn(2.1, values).find(({ name }) => name === 'filters');
		const named = (before?.options as INodeProperties[]).map(({ name }) => name);
		expect(options.map(({ name }) => name)).toEqual(expect.arrayContaining(named));
		// No JSON to type: no text names it, no placeholder shows it.
		expect(JSON.stringify(sections)).not.toMatch(/JSON|e\.g\. [[{]/);
	},
);
