/**
 * The operation map: resource and operation typed together (n8n's AllEntities, as Airtable v2's
 * node.type.ts), the editor's options and the router's code the same set, and a pair the node does
 * not have refused in words, whatever its name.
 */
import type { INodeProperties } from 'n8n-workflow';

import { ContactData } from '../../../nodes/ContactData/ContactData.node';
import type { ContactDataType } from '../../../nodes/ContactData/node.type';
import { OPERATIONS } from '../../../nodes/ContactData/router';
import { startTestSandbox } from '../../harness/sandbox';
import { run, type TestSandbox } from './setup';

/** `true` when `V` is a value of `T`: checked by `npm run typecheck`, where a wrong literal fails. */
type Accepts<T, V> = V extends T ? true : false;

let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 100 });
});
afterAll(async () => sandbox?.close());

const properties: INodeProperties[] = new ContactData().description.properties;
const valuesOf = (property: INodeProperties | undefined) =>
	(property?.options ?? []).map((option) => String((option as { value: unknown }).value)).sort();

it('types a resource and its operations together', () => {
	const unlockIsContact: Accepts<ContactDataType, { resource: 'contact'; operation: 'unlock' }> =
		true;
	const deleteIsNotContact: Accepts<ContactDataType, { resource: 'contact'; operation: 'delete' }> =
		false;
	const deleteIsSavedList: Accepts<
		ContactDataType,
		{ resource: 'savedList'; operation: 'delete' }
	> = true;
	const anyString: Accepts<ContactDataType, { resource: string; operation: string }> = false;
	expect([unlockIsContact, deleteIsNotContact, deleteIsSavedList, anyString]).toEqual([
		true,
		false,
		true,
		false,
	]);
});

it('the editor offers exactly the resources and operations the router runs', () => {
	const resources = valuesOf(properties.find((property) => property.name === 'resource'));
	expect(resources).toEqual(Object.keys(OPERATIONS).sort());
	for (const resource of resources) {
		const operation = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource),
		);
		expect([resource, valuesOf(operation)]).toEqual([
			resource,
			Object.keys(OPERATIONS[resource as keyof typeof OPERATIONS]).sort(),
		]);
	}
});

it.each(['export', 'constructor', 'toString'])(
	'a pair the node does not have (contact, %s) is refused in words',
	async (operation) => {
		const result = await run(sandbox, { parameters: { resource: 'contact', operation } });
		expect(result.error?.message).toBe(
			`The operation "${operation}" of "contact" is not supported`,
		);
	},
);

it('with Continue On Fail, a failure of the whole run is every input item’s error item, paired, none lost', async () => {
	const inputItems = [{ json: { id: 'a' } }, { json: { id: 'b' } }, { json: { id: 'c' } }];
	const result = await run(sandbox, {
		parameters: { resource: 'contact', operation: 'export' },
		inputItems,
		continueOnFail: true,
	});
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.error, item.pairedItem])).toEqual(
		[0, 1, 2].map((item) => ['The operation "export" of "contact" is not supported', { item }]),
	);
});
