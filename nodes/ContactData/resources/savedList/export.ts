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
	savedListSchema,
	type ExportFormat,
	type SavedList,
} from '../../shared/client/contract';
import { forEachItem } from '../../shared/items/items';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { exportedContacts } from '../../shared/client/exportContacts';
import { bulkExportAnswer, openSignedUrl } from '../../shared/client/exportDownload';
import { apiRequest, type ApiResponse } from '../../shared/client/transport';
import {
	SAVED_LIST_PARAMETER,
	booleanParameter,
	optionParameter,
	savedListIdOf,
} from '../../shared/parameters/descriptions';
import {
	countContacts,
	countStoredExport,
	notUnlockedNotice,
	type ExportCounts,
} from './exportCounts';
import { checkBody, refused, stringListOf, textOf } from '../../shared/parameters/values';

const showFor = { show: { resource: ['savedList'], operation: ['export'] } };
const showForFile = { show: { ...showFor.show, outputAs: ['binary'], '@tool': [false] } };

const asItems = {
	name: 'Items',
	value: 'items',
	description: `One item per contact, for lists under ${LIMITS.bulkExportThreshold.toLocaleString('en-US')} contacts (larger lists are exported as a file)`,
};

const OUTPUT_AS_CHOICES = [
	{
		name: 'File',
		value: 'binary',
		description:
			'One item with the export as a binary file (any list size; large lists are streamed)',
	},
	asItems,
];

const FORMAT_CHOICES = [
	{ name: 'CSV', value: 'csv' },
	{ name: 'JSON', value: 'json' },
];

export const description: INodeProperties[] = [
	SAVED_LIST_PARAMETER,
	{
		displayName: 'Output As',
		name: 'outputAs',
		type: 'options',
		required: true,
		default: 'binary',
		displayOptions: { show: { ...showFor.show, '@tool': [false] } },
		options: OUTPUT_AS_CHOICES,
	},
	// An AI agent cannot use a binary file: as a tool, Export gives items only.
	{
		displayName: 'Output As',
		name: 'outputAs',
		type: 'options',
		required: true,
		default: 'items',
		displayOptions: { show: { ...showFor.show, '@tool': [true] } },
		options: [asItems],
	},
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		required: true,
		default: 'csv',
		displayOptions: showForFile,
		options: FORMAT_CHOICES,
	},
	{
		displayName: 'Fields',
		name: 'fields',
		type: 'string',
		default: '',
		placeholder: 'e.g. first_name, last_name, email, company.name',
		displayOptions: showFor,
		description:
			'The fields to export, separated by commas; company.name names a field inside another. Empty: every field, at the level each contact is held (members not unlocked have no email).',
	},
	{
		displayName: 'Unlocked Contacts Only',
		name: 'unlockedOnly',
		type: 'boolean',
		default: false,
		displayOptions: showFor,
		description:
			'Whether to export only the members your account has unlocked. Off: every member, those not unlocked without email (the output says how many).',
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
		const request = readExportAsked(this, itemIndex);
		const download = await startExport(this, request, itemIndex);
		if (request.outputAs === 'items') return await exportedItems(this, download.file);
		return [await exportedFile(this, request, download, itemIndex)];
	});
}

/** An item's export as its parameters ask for it, checked before anything is sent. */
interface ExportAsked {
	listId: string;
	outputAs: 'binary' | 'items';
	format: ExportFormat;
	/** The binary field of the output item (a file only). */
	binaryPropertyName?: string;
	body: IDataObject;
}

function readExportAsked(context: IExecuteFunctions, itemIndex: number): ExportAsked {
	const where = { node: context.getNode(), itemIndex };
	const listId = savedListIdOf(context, itemIndex);
	const outputAs = optionParameter<'binary' | 'items'>(
		context,
		'outputAs',
		'Output As',
		itemIndex,
		OUTPUT_AS_CHOICES,
		'binary',
	);
	const format =
		outputAs === 'items'
			? 'json'
			: optionParameter<ExportFormat>(
					context,
					'format',
					'Format',
					itemIndex,
					FORMAT_CHOICES,
					'csv',
				);
	const fields = stringListOf(where, 'Fields', context.getNodeParameter('fields', itemIndex, ''));
	const unlockedOnly = booleanParameter(
		context,
		'unlockedOnly',
		'Unlocked Contacts Only',
		itemIndex,
	);
	const binaryPropertyName =
		outputAs === 'binary' ? binaryPropertyNameOf(context, itemIndex) : undefined;
	const body = checkBody(
		context,
		exportRequestSchema,
		{
			format,
			...(fields.length ? { fields } : {}),
			...(unlockedOnly === false ? {} : { unlocked_only: unlockedOnly }),
		},
		itemIndex,
		{ format: 'Format', fields: 'Fields', unlocked_only: 'Unlocked Contacts Only' },
	);
	return { listId, outputAs, format, binaryPropertyName, body };
}

/** The export's answer, and the file: inline, or (a large list) from the signed URL it answers with. */
interface ExportDownload {
	started: ApiResponse<unknown>;
	file: ApiResponse<AsyncIterable<Buffer>>;
	/** The list's size, as the answer of a large list gives it. */
	contactCount?: number;
}

const NOTHING_DOWNLOADED =
	'Nothing was downloaded. Run the export again; if it keeps failing, the API has changed what it answers.';

/** Starts the export; a large list's file comes from the signed URL the API answers with. */
async function startExport(
	context: IExecuteFunctions,
	request: ExportAsked,
	itemIndex: number,
): Promise<ExportDownload> {
	const started = await apiRequest.call(context, {
		method: 'POST',
		path: PATHS.listExport(request.listId),
		fieldNames: editorFieldNames,
		pathParameter: 'Saved List',
		body: request.body,
		stream: true,
		safeToRetry: true,
		itemIndex,
	});
	const inline = started as ApiResponse<AsyncIterable<Buffer>>;
	const bulk = await bulkExportAnswer.call(context, inline, NOTHING_DOWNLOADED, itemIndex);
	if (bulk === undefined) return { started, file: inline };
	if (request.outputAs === 'items') {
		// As items the whole export would be held in memory at once: refuse before downloading.
		throw new NodeOperationError(
			context.getNode(),
			`The saved list has ${bulk.contact_count} contacts, too many to output as items`,
			{
				itemIndex,
				description: `Lists of ${LIMITS.bulkExportThreshold} contacts or more are exported as a file: set Output As to File, which streams it without holding it in memory.`,
			},
		);
	}
	const file = await openSignedUrl.call(context, bulk.url, itemIndex);
	return { started, file, contactCount: bulk.contact_count };
}

/** The export as items, one a contact. */
async function exportedItems(
	context: IExecuteFunctions,
	file: ApiResponse<AsyncIterable<Buffer>>,
): Promise<IDataObject[]> {
	const contacts: IDataObject[] = [];
	for await (const contact of exportedContacts(file.body)) contacts.push(contact);
	noticeNotUnlocked(context, await countContacts(contacts));
	return contacts;
}

/** The export as one item with the file in its binary field. */
async function exportedFile(
	context: IExecuteFunctions,
	{ listId, format, binaryPropertyName }: ExportAsked,
	{ started, file, contactCount }: ExportDownload,
	itemIndex: number,
): Promise<INodeExecutionData> {
	const fileName =
		fileNameOf(file.headers) ??
		fileNameOf(started.headers) ??
		(await listFileName(context, listId, format, itemIndex));
	const binary = await context.helpers.prepareBinaryData(
		file.body as unknown as Buffer,
		fileName,
		MIME_TYPES[format],
	);
	// Read back from n8n's store, so the download stays one stream and costs no second call.
	const counts = await countStoredExport(context, binary, format);
	noticeNotUnlocked(context, counts);
	const json: IDataObject = {
		list_id: listId,
		format,
		file_name: fileName,
		contact_count: contactCount ?? counts.contacts,
	};
	if (counts.notUnlocked !== undefined) json.not_unlocked_count = counts.notUnlocked;
	return { json, binary: { [binaryPropertyName ?? 'data']: binary } };
}

/** Tells the user when contacts were exported without email because they are not unlocked. */
function noticeNotUnlocked(context: IExecuteFunctions, counts: ExportCounts): void {
	const message = notUnlockedNotice(counts);
	if (message) context.addExecutionHints({ message, location: 'outputPane' });
}

function binaryPropertyNameOf(context: IExecuteFunctions, itemIndex: number): string {
	const parameter = 'Put Output File in Field';
	const where = { node: context.getNode(), itemIndex };
	const value: unknown = context.getNodeParameter('binaryPropertyName', itemIndex, 'data');
	const name = textOf(where, parameter, value);
	if (name === '')
		throw refused(
			where,
			parameter,
			value,
			'is not a field name',
			'Give the name of the binary field to put the file in, e.g. data.',
		);
	return name;
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
		pathParameter: 'Saved List',
		itemIndex,
		schema: savedListSchema,
	});
	return `${list.name.replace(/[\\/:*?"<>|]+/g, '_')}.${format}`;
}
