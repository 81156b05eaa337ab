/**
 * Field names the editor fills in right (issue 32): a field dragged from the input panel onto a
 * parameter that names a field of each input item must drop its name (`email`, `company.name`), not an
 * expression for its value. n8n's editor does so for a parameter with `requiresDataPath: 'single'`, as
 * its own field-name parameters have (Sort's Field Name, Set's Name); the browser journey drags one.
 */
import type { INodeProperties } from 'n8n-workflow';

import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';

const FIELD_NAME_PARAMETERS = ['contactIdField', 'emailField', 'linkedinUrlField'];

const properties: INodeProperties[] = new ContactData().description.properties;

it.each(FIELD_NAME_PARAMETERS)('%s takes a dropped field as its name (one path)', (name) => {
	const found = properties.filter((property) => property.name === name);
	expect(found.length).toBeGreaterThan(0);
	for (const property of found) expect(property.requiresDataPath).toBe('single');
});
