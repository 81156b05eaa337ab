/**
 * The package's errors are n8n's as n8n reads them (name, class, JSON), with the message as built:
 * no word of the user's reworded, the item named only when the node has more than one.
 */
import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

import {
	ApiFailure,
	failureOf,
	OperationError,
} from '../../../../../nodes/ContactData/shared/client/failures';

const node: INode = {
	id: 'node',
	name: 'Contact Data',
	type: 'n8n-nodes-contact-data.contactData',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const withItems = (count: number) => ({
	getNode: () => node,
	getInputData: () => Array.from({ length: count }, () => ({ json: {} })),
});
const message = 'Nothing answers at the Base URL "http://deepermind.example"';

it('an ApiFailure is a NodeApiError to n8n: its name, its class, its JSON', () => {
	const details = { message, description: 'Check the Base URL.', status: 503, itemIndex: 0 };
	const failure = new ApiFailure(node, 'lostAnswer', details);
	const plain = new NodeApiError(node, { code: null }, { ...details, httpCode: '503' });
	expect(failure).toBeInstanceOf(NodeApiError);
	expect(failure.name).toBe('NodeApiError');
	expect(failure.httpCode).toBe('503');
	expect(Object.keys(JSON.parse(JSON.stringify(failure)))).toEqual(
		Object.keys(JSON.parse(JSON.stringify(plain))),
	);
	expect(failureOf(failure)).toMatchObject({ kind: 'lostAnswer', headline: message });
});

it('an OperationError is a NodeOperationError to n8n, of no kind unless given one', () => {
	const error = new OperationError(node, message, { description: 'Change it.' });
	expect(error).toBeInstanceOf(NodeOperationError);
	expect(error.name).toBe('NodeOperationError');
	expect(failureOf(error)).toBeUndefined();
	expect(failureOf(new OperationError(node, message, { kind: 'notSent' }))?.kind).toBe('notSent');
});

it('keeps a message holding a system code (EPERM in "deepermind") as written', () => {
	expect(new NodeOperationError(node, message).message).not.toBe(message);
	expect(new OperationError(node, message).message).toBe(message);
	expect(new ApiFailure(node, 'notSent', { message }).message).toBe(message);
});

it('names the item only when the node has more than one', () => {
	const one = new ApiFailure(withItems(1), 'refused', { message, itemIndex: 0 });
	const several = new ApiFailure(withItems(3), 'refused', { message, itemIndex: 2 });
	expect(one.message).toBe(message);
	expect(several.message).toBe(`${message} [item 2]`);
	expect(several.headline).toBe(message);
	expect(several.context.itemIndex).toBe(2);
	expect(new OperationError(withItems(3), message, { itemIndex: 1 }).message).toBe(
		`${message} [item 1]`,
	);
	expect(new OperationError(withItems(3), message).message).toBe(message);
});
