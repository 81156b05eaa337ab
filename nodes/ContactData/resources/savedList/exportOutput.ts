/**
 * A saved list's export given out: as items, one a contact, or as one item with the file in its
 * binary field (a large list's file streamed from the signed URL the API answers with).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import {
	LIMITS,
	PATHS,
	savedListSchema,
	type ExportFormat,
	type SavedList,
} from '../../shared/client/contract';
import { exportedContacts } from '../../shared/client/exportContacts';
import { OperationError } from '../../shared/client/failures';
import { openSignedUrl, type StartedExport } from '../../shared/client/exportDownload';
import { apiRequest, type ApiResponse } from '../../shared/client/transport';
import { countContacts, countStoredExport, hintNotUnlocked } from './exportCounts';

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

export interface ExportAsked {
	listId: string;
	outputAs: 'binary' | 'items';
	format: ExportFormat;
	/** The binary field of the output item (a file only). */
	binaryPropertyName?: string;
	body: IDataObject;
}

/** The export as items, one a contact; a large list is refused before anything is downloaded. */
export async function exportedItems(
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
export async function exportedFile(
	context: IExecuteFunctions,
	{ listId, format, binaryPropertyName }: ExportAsked,
	{ started, bulk }: StartedExport,
	itemIndex: number,
): Promise<INodeExecutionData> {
	const file = bulk ? await openSignedUrl.call(context, bulk.url, itemIndex) : started;
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
