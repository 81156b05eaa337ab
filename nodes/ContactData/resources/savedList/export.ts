import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ApiResponse } from '../../shared/client/call';
import {
	LIMITS,
	PATHS,
	exportRequestSchema,
	savedListSchema,
	type ExportFormat,
	type SavedList,
} from '../../shared/client/contract';
import { exportedContacts } from '../../shared/client/exportContacts';
import { openSignedUrl, startExport, type StartedExport } from '../../shared/client/exportDownload';
import { OperationError } from '../../shared/client/failures';
import { apiRequest } from '../../shared/client/transport';
import type { OperationExecute } from '../../shared/items/items';
import { readEveryItemFirst } from '../../shared/items/perItemReaders';
import {
	SAVED_LIST_PARAMETER,
	booleanParameter,
	optionParameter,
	savedListIdOf,
} from '../../shared/parameters/descriptions';
import { checkBody, refused, stringListOf, textOf } from '../../shared/parameters/values';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { countContacts, countStoredExport, hintNotUnlocked } from './exportCounts';

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
		hint: 'The name the file is attached under in the output item: the nodes after this one ask for the file by it',
	},
];

export const execute: OperationExecute = async function (items) {
	const read = (itemIndex: number) => readExportAsked(this, itemIndex);
	return await readEveryItemFirst(this, items, read, async (asked, itemIndex) => {
		const started = await startExport.call(
			this,
			asked.listId,
			{ body: asked.body, fieldNames: editorFieldNames, pathParameter: 'Saved List', itemIndex },
			'Nothing was downloaded. Run the export again; if it keeps failing, the API has changed what it answers.',
		);
		if (asked.outputAs === 'items') return await exportedItems(this, started, itemIndex);
		return [await exportedFile(this, asked, started, itemIndex)];
	});
};

/** An item's export as its parameters ask for it, checked before anything is sent. */
function readExportAsked(context: IExecuteFunctions, itemIndex: number) {
	const where = { context, itemIndex };
	const listId = savedListIdOf(context, itemIndex);
	const outputAs = optionParameter<'binary' | 'items'>(
		context,
		'outputAs',
		'Output As',
		itemIndex,
		OUTPUT_AS_CHOICES,
		'binary',
	);
	const asFile = outputAs === 'binary';
	const format = asFile
		? optionParameter<ExportFormat>(context, 'format', 'Format', itemIndex, FORMAT_CHOICES, 'csv')
		: 'json';
	const binaryPropertyName = asFile ? binaryPropertyNameOf(context, itemIndex) : undefined;
	const fields = stringListOf(where, 'Fields', context.getNodeParameter('fields', itemIndex, ''));
	const unlockedOnly = booleanParameter(
		context,
		'unlockedOnly',
		'Unlocked Contacts Only',
		itemIndex,
	);
	const body = checkBody(
		context,
		exportRequestSchema,
		{
			format,
			...(fields.length ? { fields } : {}),
			...(unlockedOnly ? { unlocked_only: true } : {}),
		},
		itemIndex,
		{ format: 'Format', fields: 'Fields', unlocked_only: 'Unlocked Contacts Only' },
	);
	return { listId, outputAs, format, binaryPropertyName, body };
}

type ExportAsked = ReturnType<typeof readExportAsked>;

function binaryPropertyNameOf(context: IExecuteFunctions, itemIndex: number): string {
	const where = { context, itemIndex };
	const value: unknown = context.getNodeParameter('binaryPropertyName', itemIndex, 'data');
	const name = textOf(where, 'Put Output File in Field', value);
	if (name !== '') return name;
	const expected = 'type a name to attach the file under, e.g. data';
	throw refused(where, 'Put Output File in Field', value, 'is not a field name', expected);
}

const MIME_TYPES: Record<ExportFormat, string> = { csv: 'text/csv', json: 'application/json' };

/** The file name from `Content-Disposition`, when the answer names one. */
function fileNameOf(headers: ApiResponse<unknown>['headers']): string | undefined {
	const raw = headers['content-disposition'];
	const value = Array.isArray(raw) ? raw[0] : raw;
	if (!value) return undefined;
	const encoded = /filename\*=UTF-8''([^;]+)/i.exec(value);
	if (encoded) return decodeURIComponent(encoded[1]);
	const quoted = /filename="((?:[^"\\]|\\.)*)"/i.exec(value);
	return quoted?.[1].replace(/\\(.)/g, '$1');
}

/** The export as items, one a contact; a large list is refused before anything is downloaded. */
async function exportedItems(
	context: IExecuteFunctions,
	{ started, bulk }: StartedExport,
	itemIndex: number,
): Promise<IDataObject[]> {
	if (bulk) {
		// As items the whole export would be held in memory at once.
		throw new OperationError(
			context,
			`The saved list has ${bulk.contact_count} contacts, too many to output as items`,
			{
				itemIndex,
				description: `Lists of ${LIMITS.bulkExportThreshold} contacts or more are exported as a file: set Output As to File, which streams it without holding it in memory.`,
			},
		);
	}
	const contacts: IDataObject[] = [];
	for await (const contact of exportedContacts(started.body)) contacts.push(contact);
	hintNotUnlocked(context, await countContacts(contacts));
	return contacts;
}

/** The export as one item with the file in its binary field (a large list's from its signed URL). */
async function exportedFile(
	context: IExecuteFunctions,
	{ listId, format, binaryPropertyName }: ExportAsked,
	{ started, bulk }: StartedExport,
	itemIndex: number,
): Promise<INodeExecutionData> {
	const file = bulk ? await openSignedUrl.call(context, bulk.url, itemIndex) : started;
	const fileName =
		fileNameOf(file.headers) ?? (await listFileName(context, listId, format, itemIndex));
	const binary = await context.helpers.prepareBinaryData(
		file.body as unknown as Buffer,
		fileName,
		MIME_TYPES[format],
	);
	// Read back from n8n's store, so the download stays one stream and costs no second call.
	const counts = await countStoredExport(context, binary, format);
	hintNotUnlocked(context, counts);
	const json = {
		list_id: listId,
		format,
		file_name: fileName,
		contact_count: bulk?.contact_count ?? counts.contacts,
		...(counts.notUnlocked !== undefined && { not_unlocked_count: counts.notUnlocked }),
	};
	return { json, binary: { [binaryPropertyName ?? 'data']: binary } };
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
