/** n8n's open-ended-node-fields rule: no optional JSON field from version 2 on; version 1 keeps its field. */
import { NodeHelpers } from 'n8n-workflow';

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
		expect(shownIn(2, values).filter((property) => property.type === 'json')).toEqual([]);
	},
);
