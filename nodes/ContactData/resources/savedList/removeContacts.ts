import { memberOperation } from './members';

export const { description, execute } = memberOperation(
	'removeContacts',
	'The contacts of all input items are removed together, 1,000 per call, even those the list’s filters match.',
);
