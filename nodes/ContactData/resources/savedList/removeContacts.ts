import { memberOperation } from './members';

export const { description, execute } = memberOperation(
	'removeContacts',
	'The contacts of all input items are removed together, even those the list’s filters match.',
);
