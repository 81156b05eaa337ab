/** API error answers in the user's words: the parameter behind the API's field, not the field. */
import type { INode } from 'n8n-workflow';

import { apiError } from '../../../../../nodes/ContactData/shared/client/apiErrors';
import { editorFieldNames } from '../../../../../nodes/ContactData/shared/parameters/fieldNames';

const node: INode = {
	id: 'node',
	name: 'Contact Data',
	type: 'n8n-nodes-contact-data.contactData',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const context = { getNode: () => node };
const refusal = (field: string, message: string) => ({
	error: { code: 'invalid_request', message: `${field}: ${message}`, details: { field } },
});

it.each([
	[
		'filters.company_size',
		'must be "<min>-<max>"',
		'Company Size (Min/Max Employees): must be "<min>-<max>"',
	],
	[
		'filters.country',
		'must be an ISO 3166 alpha-2 code',
		'Countries: must be an ISO 3166 alpha-2 code',
	],
	[
		'filters.keywords',
		'must have at most 32 distinct words',
		'Keywords: must have at most 32 distinct words',
	],
	['limit', 'must be a whole number from 1 to 100', 'Limit: must be a whole number from 1 to 100'],
	['ids', 'must not repeat an id', 'Contact IDs: must not repeat an id'],
	[
		'filters.revenue_range',
		'unknown field "revenue_range"',
		'Filter "revenue_range": unknown field "revenue_range"',
	],
])('names the parameter behind %s', (field, message, headline) => {
	const error = apiError(context, 400, refusal(field, message), {
		itemIndex: 0,
		fieldNames: editorFieldNames,
	});
	expect(error.message).toBe(headline);
	expect(error.description).toBe(
		`400 invalid_request (API field: ${field}). Check the parameter named above.`,
	);
});

it('an unknown id in the path is named by the parameter it came from', () => {
	const body = { error: { code: 'not_found', message: 'no saved list has the id ls_1' } };
	expect(apiError(context, 404, body, { itemIndex: 0, pathParameter: 'Saved List' }).message).toBe(
		'Saved List: no saved list has the id ls_1',
	);
	expect(apiError(context, 404, body, { itemIndex: 0 }).message).toBe(
		'no saved list has the id ls_1',
	);
});
