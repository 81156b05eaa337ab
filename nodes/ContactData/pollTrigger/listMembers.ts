/**
 * Reads a saved list's members through its export (free, not rate limited), a member at a time as
 * the bytes arrive, inline or through the signed URL of a bulk export: a list of any size is never
 * held whole.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { PATHS } from '../shared/client/contract';
import { exportedContacts } from '../shared/client/exportContacts';
import { bulkExportAnswer, openSignedUrl } from '../shared/client/exportDownload';
import { apiRequest, type ApiResponse } from '../shared/client/transport';

/**
 * The fields a member is exported with: the contact preview, which is what an event carries (a
 * poll needs title and company to compare, and the rest to emit the contact as the webhook does).
 */
export const EXPORTED_FIELDS = [
	'id',
	'first_name',
	'last_name',
	'title',
	'seniority',
	'department',
	'company.name',
	'company.domain',
	'company.industry',
	'company.size',
	'company.funding_stage',
	'company.tech_stack',
	'location.country',
	'location.region',
	'location.city',
	'has_email',
	'has_phone',
	'unlocked',
];

type Stream = AsyncIterable<Buffer | string>;

/** Starts the export of a list; a bulk export (202) is followed to its signed URL. */
async function openExport(context: IPollFunctions, listId: string): Promise<Stream> {
	const started = (await apiRequest.call(context, {
		method: 'POST',
		path: PATHS.listExport(listId),
		pathParameter: 'Saved Lists to Watch',
		body: { format: 'json', fields: EXPORTED_FIELDS },
		stream: true,
		safeToRetry: true,
	})) as ApiResponse<Stream>;
	const bulk = await bulkExportAnswer.call(
		context,
		started,
		'Nothing was compared; the next poll tries again.',
	);
	return bulk === undefined ? started.body : (await openSignedUrl.call(context, bulk.url)).body;
}

/** The members of a list, one parsed contact at a time, as the export streams in. */
export async function exportedMembers(
	context: IPollFunctions,
	listId: string,
): Promise<AsyncGenerator<IDataObject>> {
	return exportedContacts(await openExport(context, listId));
}
