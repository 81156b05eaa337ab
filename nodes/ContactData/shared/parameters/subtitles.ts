/**
 * The subtitles under the nodes on the canvas: the names of the chosen options, in Title Case as
 * n8n's guidelines ask. `subtitle` is an expression, so each writes a map from value to name into one.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

const optionsOf = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];

/** "Unlock: Contact": the chosen operation and resource, for a node with a Resource parameter. */
export function operationSubtitle(
	resource: INodeProperties,
	operations: INodeProperties[],
): string {
	const names: Record<string, string> = {};
	for (const operation of operations) {
		const resourceValue = operation.displayOptions?.show?.resource?.[0];
		const resourceName = optionsOf(resource).find(({ value }) => value === resourceValue)?.name;
		for (const { value, name } of optionsOf(operation))
			names[`${String(resourceValue)}.${value}`] = `${name}: ${resourceName}`;
	}
	return `={{ ${JSON.stringify(names)}[$parameter["resource"] + "." + $parameter["operation"]] }}`;
}

/** "On Job Change, Role Change": the events that start a trigger, from its Events parameter. */
export function eventsSubtitle(properties: INodeProperties[]): string {
	const events = properties.find(({ name }) => name === 'events');
	const names = Object.fromEntries(
		optionsOf(events ?? ({} as INodeProperties)).map(({ value, name }) => [value, name]),
	);
	return `={{ "On " + $parameter["events"].map((event) => (${JSON.stringify(names)})[event]).join(", ") }}`;
}
