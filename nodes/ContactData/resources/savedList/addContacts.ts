import { memberOperation } from './members';

export const { description, execute } = memberOperation(
	'addContacts',
	'The contacts of all input items are added together, each once.',
);
