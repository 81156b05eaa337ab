import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import {
	LIMITS,
	PATHS,
	exportRequestSchema,
	exportUrlResponseSchema,
	savedListSchema,
	type ExportFormat,
	type SavedList,
} from '../../shared/contract';
import { savedListIdOf, savedListLocator } from '../../shared/descriptions';
import { forEachItem } from '../../shared/items';
import { apiRequest, openSignedUrl, readJsonStream, type ApiResponse } from '../../shared/transport';
import { checkBody, toStringList } from '../../shared/values';

const showFor = { show: { resource: ['savedList'], operation: ['export'] } };
const showForFile = { show: { ...showFor.show, outputAs: ['binary'], '@tool': [false] } };

const asItems = {
	name: 'Items',
	value: 'items',
	description: `One item per contact, for lists under ${LIMITS.bulkExportThreshold.toLocaleString('en-US')} contacts (larger lists are exported as a file)`,
};

export const description: INodeProperties[] = [
	savedListLocator(showFor),
	{
		displayName: 'Output As',
		name: 'outputAs',
		type: 'options',
		default: 'binary',
		displayOptions: { show: { ...showFor.show, '@tool': [false] } },
		options: [
			{
				name: 'File',
				value: 'binary',
				description: 'One item with the export as a binary file (any list size; large lists are streamed)',
			},
			asItems,
		],
	},
	// An AI agent cannot use a binary file: as a tool, Export gives items only.
	{
		displayName: 'Output As',
		name: 'outputAs',
		type: 'options',
		default: 'items',
		displayOptions: { show: { ...showFor.show, '@tool': [true] } },
		options: [asItems],
	},
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		default: 'csv',
		displayOptions: showForFile,
		options: [
			{ name: 'CSV', value: 'csv' },
			{ name: 'JSON', value: 'json' },
		],
	},
	{
		displayName: 'Fields',
		name: 'fields',
		type: 'string',
		default: '',
		placeholder: 'first_name, last_name, email, company.name',
		displayOptions: showFor,
		description:
			'The fields to export, as dotted paths, separated by commas. Empty: every field at the level each contact is held (members not unlocked come without email).',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: showForFile,
		hint: 'The name of the output binary field to put the file in',
	},
];

const MIME_TYPES: Record<ExportFormat, string> = { csv: 'text/csv', json: 'application/json' };

type Headers = ApiResponse<unknown>['headers'];

/** The file name from `Content-Disposition`, when the answer names one. */
function fileNameOf(headers: Headers): string | undefined {
	const raw = headers['content-disposition'];
	const value = Array.isArray(raw) ? raw[0] : raw;
	if (!value) return undefined;
	const encoded = /filename\*=UTF-8''([^;]+)/i.exec(value);
	if (encoded) return decodeURIComponent(encoded[1]);
	const quoted = /filename="((?:[^"\\]|\\.)*)"/i.exec(value);
	if (quoted) return quoted[1].replace(/\\(.)/g, '$1');
	const plain = /filename=([^;]+)/i.exec(value);
	return plain ? plain[1].trim() : undefined;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (itemIndex) => {
		const listId = savedListIdOf(this, itemIndex);
		const outputAs = this.getNodeParameter('outputAs', itemIndex, 'binary') as string;
		const format =
			outputAs === 'items' ? 'json' : (this.getNodeParameter('format', itemIndex, 'csv') as ExportFormat);
		const fields = toStringList(this.getNodeParameter('fields', itemIndex, ''));
		const body = checkBody(
			this,
			exportRequestSchema,
			{ format, ...(fields.length ? { fields } : {}) },
			itemIndex,
			{ format: 'Format', fields: 'Fields' },
		);

		const started = await apiRequest.call(this, {
			method: 'POST',
			path: PATHS.listExport(listId),
			body,
			stream: true,
			safeToRetry: true,
			itemIndex,
		});
		let file = started as ApiResponse<AsyncIterable<Buffer>>;
		let contactCount: number | undefined;
		if (started.statusCode === 202) {
			// A large list: the answer is a signed URL to stream the file from.
			const bulk = exportUrlResponseSchema.parse(await readJsonStream(file.body));
			contactCount = bulk.contact_count;
			if (outputAs === 'items') {
				// As items the whole export would be held in memory at once: refuse before downloading.
				throw new NodeOperationError(
					this.getNode(),
					`The saved list has ${bulk.contact_count} contacts, too many to output as items [item ${itemIndex}]`,
					{
						itemIndex,
						description: `Lists of ${LIMITS.bulkExportThreshold} contacts or more are exported as a file: set Output As to File, which streams it without holding it in memory.`,
					},
				);
			}
			file = await openSignedUrl.call(this, bulk.url, itemIndex);
		}

		if (outputAs === 'items') {
			const parsed = (await readJsonStream(file.body)) as { contacts?: IDataObject[] } | undefined;
			return (parsed?.contacts ?? []).map((contact) => ({ ...contact }));
		}

		const fileName =
			fileNameOf(file.headers) ??
			fileNameOf(started.headers) ??
			(await listFileName(this, listId, format, itemIndex));
		const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
		const binary = await this.helpers.prepareBinaryData(
			file.body as unknown as Buffer,
			fileName,
			MIME_TYPES[format],
		);
		const json: IDataObject = { list_id: listId, format, file_name: fileName };
		if (contactCount !== undefined) json.contact_count = contactCount;
		return [{ json, binary: { [binaryPropertyName]: binary } }];
	});
}

async function listFileName(
	context: IExecuteFunctions,
	listId: string,
	format: ExportFormat,
	itemIndex: number,
): Promise<string> {
	const { body: list } = await (apiRequest<SavedList>).call(context, {
		method: 'GET',
		path: PATHS.list(listId),
		itemIndex,
		schema: savedListSchema,
	});
	return `${list.name.replace(/[\\/:*?"<>|]+/g, '_')}.${format}`;
}
