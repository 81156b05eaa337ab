import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { LIMITS, exportRequestSchema, type ExportFormat } from '../../shared/client/contract';
import { forEachItem, type OperationExecute } from '../../shared/items/items';
import {
	SAVED_LIST_PARAMETER,
	booleanParameter,
	optionParameter,
	savedListIdOf,
} from '../../shared/parameters/descriptions';
import { checkBody, refused, stringListOf, textOf } from '../../shared/parameters/values';
import { startExport } from '../../shared/client/exportDownload';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { exportedFile, exportedItems, type ExportAsked } from './exportOutput';

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

export const execute: OperationExecute = async function (items) {
	return await forEachItem(this, items, async (itemIndex) => {
		const asked = readExportAsked(this, itemIndex);
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
function readExportAsked(context: IExecuteFunctions, itemIndex: number): ExportAsked {
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

function binaryPropertyNameOf(context: IExecuteFunctions, itemIndex: number): string {
	const where = { context, itemIndex };
	const value: unknown = context.getNodeParameter('binaryPropertyName', itemIndex, 'data');
	const name = textOf(where, 'Put Output File in Field', value);
	if (name !== '') return name;
	const hint = 'Give the name of the binary field to put the file in, e.g. data.';
	throw refused(where, 'Put Output File in Field', value, 'is not a field name', hint);
}
