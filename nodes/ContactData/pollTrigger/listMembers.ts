/** A saved list's members through its export (free, not rate limited), never held whole. */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { exportedContacts } from '../shared/client/exportContacts';
import { openSignedUrl, startExport } from '../shared/client/exportDownload';

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

/** The members of a list, one parsed contact at a time as the export streams in. */
export async function exportedMembers(
	context: IPollFunctions,
	listId: string,
): Promise<AsyncGenerator<IDataObject>> {
	const { started, bulk } = await startExport.call(
		context,
		listId,
		{ body: { format: 'json', fields: EXPORTED_FIELDS }, pathParameter: 'Saved Lists to Watch' },
		'Nothing was compared; the next poll tries again.',
	);
	const file = bulk === undefined ? started : await openSignedUrl.call(context, bulk.url);
	return exportedContacts(file.body);
}
