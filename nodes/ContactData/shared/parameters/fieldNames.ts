/** How an API error about a request body field names it: by the parameter the editor shows. */
import type { FieldNames } from '../client/call';
import { FILTER_PARAMETER_NAMES } from './filters';

const FIELD_PARAMETER_NAMES = new Map<string, string>(
	Object.entries({
		...FILTER_PARAMETER_NAMES,
		limit: 'Limit',
		cursor: 'Return All (the paging cursor)',
		ids: 'Contact IDs',
		contact_ids: 'Contact IDs',
		contact_id: 'Contact ID',
		level: 'Level',
		email: 'Email',
		linkedin_url: 'LinkedIn URL',
		name: 'Name',
		reason: 'Reason',
		note: 'Note',
		format: 'Format',
		fields: 'Fields',
	}),
);

export const editorFieldNames: FieldNames = (field) => FIELD_PARAMETER_NAMES.get(field);
