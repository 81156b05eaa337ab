/**
 * n8n's open-ended-node-fields rule: no optional JSON field from version 2 on; version 1 keeps its
 * field. From 2.2 one Filters section, the API's other filters by name inside it.
 */
import { NodeHelpers, type INodeProperties, type INodePropertyCollection } from 'n8n-workflow';

import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { ContactDataPollTrigger } from '../../../../../nodes/ContactData/ContactDataPollTrigger.node';
import { ContactDataTrigger } from '../../../../../nodes/ContactData/ContactDataTrigger.node';

/** The Other Filters guidance, where the browser journey looks for it on both lines. */
const OTHER_FILTERS_GUIDANCE =
	'The API has 270+ filters besides those above: give one by its name as the Contact Data API reference lists it';

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
		// n8n shows a fixedCollection as a label with a tooltip, never its hint: the guidance is the
		// hint of its Name field, shown under each filter by name (issue 44, finding 2).
		expect(other?.hint).toBeUndefined();
		const [entry] = other?.options as Array<{ values: INodeProperties[] }>;
		expect(entry.values.find(({ name }) => name === 'name')?.hint).toBe(OTHER_FILTERS_GUIDANCE);
		// Every filter version 2.1 names is still there, beside it.
		const before = shownIn(2.1, values).find(({ name }) => name === 'filters');
		const named = (before?.options as INodeProperties[]).map(({ name }) => name);
		expect(options.map(({ name }) => name)).toEqual(expect.arrayContaining(named));
		// No JSON to type: no text names it, no placeholder shows it.
		expect(JSON.stringify(sections)).not.toMatch(/JSON|e\.g\. [[{]/);
	},
);

type Entry = INodeProperties | INodePropertyCollection;

/** Every parameter under these, nested ones included (a fixedCollection's fields, a collection's). */
function nestedIn(properties: Entry[]): INodeProperties[] {
	return properties.flatMap((entry) => {
		if (!('type' in entry)) return nestedIn(entry.values);
		const inner = (entry.options ?? []).filter(
			(option) => 'type' in option || 'values' in option,
		) as Entry[];
		return [entry, ...nestedIn(inner)];
	});
}

const isButtonOwner = ({ type }: INodeProperties) =>
	type === 'collection' || type === 'fixedCollection';

it('no collection or fixedCollection has a hint: n8n never shows it', () => {
	const nodes = [new ContactData(), new ContactDataTrigger(), new ContactDataPollTrigger()];
	const owners = nodes.flatMap((node) =>
		nestedIn(node.description.properties).filter(isButtonOwner),
	);
	expect(owners.length).toBeGreaterThan(5);
	expect(owners.filter(({ hint }) => hint !== undefined).map(({ name }) => name)).toEqual([]);
});

it.each([1, 2, 2.1, 2.2])(
	'version %s: no two buttons of one panel have the same label',
	(typeVersion) => {
		const operations = description.properties
			.filter(({ name }) => name === 'operation')
			.flatMap((property) =>
				(property.options as Array<{ value: string }>).map(({ value }) => ({
					resource: property.displayOptions!.show!.resource![0] as string,
					operation: value,
				})),
			);
		expect(operations.length).toBeGreaterThanOrEqual(12);
		const repeated = operations.flatMap((values) => {
			const buttons = nestedIn(shownIn(typeVersion, values))
				.filter(isButtonOwner)
				.map(({ placeholder }) => placeholder ?? '');
			return buttons
				.filter((label, index) => buttons.indexOf(label) !== index)
				.map((label) => `${values.resource} → ${values.operation}: ${label}`);
		});
		expect(repeated).toEqual([]);
	},
);
