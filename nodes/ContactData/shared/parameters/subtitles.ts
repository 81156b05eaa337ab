/** Canvas subtitles in Title Case: `subtitle` is an expression, so each holds a value-name map. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

const optionsOf = (property?: INodeProperties) =>
	(property?.options ?? []) as INodePropertyOptions[];

/** "Unlock: Contact". */
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

/** "On Job Change, Role Change". */
export function eventsSubtitle(properties: INodeProperties[]): string {
	const events = properties.find(({ name }) => name === 'events');
	const names = Object.fromEntries(optionsOf(events).map(({ value, name }) => [value, name]));
	return `={{ "On " + $parameter["events"].map((event) => (${JSON.stringify(names)})[event]).join(", ") }}`;
}
