/**
 * Values past the contract's bounds are refused before anything is sent, naming the parameter in
 * words (issue 19): a Limit that is not a finite whole number, ids longer than any id the
 * contract's patterns allow, filter values past their stated size.
 */
import type { INodeParameters } from 'n8n-workflow';

import { LIMITS } from '../../../nodes/ContactData/shared/client/contract';
import { startTestSandbox } from '../../harness/sandbox';
import { run, type TestSandbox } from './setup';

jest.setTimeout(60_000);

let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 1_000 });
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const tooLongId = (prefix: string) => `${prefix}${'a'.repeat(20_000)}`;

async function refusedBeforeSending(
	parameters: INodeParameters,
	inputItems = [{ json: {} }],
	typeVersion?: number,
) {
	const result = await run(sandbox, { parameters, inputItems, typeVersion });
	expect(result.error?.name).toBe('NodeOperationError');
	expect((await sandbox.admin.stats()).requests_total).toBe(0);
	return result.error?.message ?? '';
}

describe('Limit', () => {
	it.each([
		['={{ Infinity }}', 'Infinity'],
		['={{ -Infinity }}', '-Infinity'],
		['={{ NaN }}', 'NaN'],
	])('%s is refused in words', async (limit, shown) => {
		const message = await refusedBeforeSending({ resource: 'contact', operation: 'search', limit });
		expect(message).toBe(
			`Limit: ${shown} is not a whole number; type a whole number of 1 or more, e.g. 100`,
		);
	});

	it('Get Many lists: Infinity is refused in words too', async () => {
		const message = await refusedBeforeSending({
			resource: 'savedList',
			operation: 'getMany',
			limit: '={{ Infinity }}',
		});
		expect(message).toBe(
			'Limit: Infinity is not a whole number; type a whole number of 1 or more, e.g. 100',
		);
	});
});

describe('ids longer than the contract allows', () => {
	it('a Saved List id of 20,000 characters is refused before sending', async () => {
		const message = await refusedBeforeSending({
			resource: 'savedList',
			operation: 'get',
			listId: byId(tooLongId('ls_')),
		});
		expect(message).toMatch(
			new RegExp(`^Saved List: "ls_a+… is longer than ${LIMITS.idMaxLength} characters`),
		);
	});

	it('a contact id of 20,000 characters is refused before sending (Unlock)', async () => {
		const message = await refusedBeforeSending({
			resource: 'contact',
			operation: 'unlock',
			contactIdsFrom: 'expression',
			contactIds: tooLongId('ct_'),
			maxCredits: 10,
		});
		expect(message).toMatch(
			new RegExp(`^Contact IDs: "ct_a+… is longer than ${LIMITS.idMaxLength} characters`),
		);
	});

	it('a contact id of 20,000 characters is refused before sending (File Refund Claim)', async () => {
		const message = await refusedBeforeSending({
			resource: 'credits',
			operation: 'fileRefundClaim',
			contactId: tooLongId('ct_'),
			reason: 'bounced_email',
		});
		expect(message).toMatch(/^Contact ID: "ct_a+… is longer than/);
	});
});

describe('filter values past their stated size', () => {
	it('Keywords of over 1 MB are refused before sending, naming the filter', async () => {
		const message = await refusedBeforeSending({
			resource: 'contact',
			operation: 'search',
			limit: 5,
			filters: { keywords: 'x'.repeat(1_100_000) },
		});
		expect(message).toMatch(
			new RegExp(`^Keywords: "x+… is longer than ${LIMITS.filterTextMaxLength} characters`),
		);
	});

	// Additional Filters (JSON) is version 1's only.
	it('a further filter (JSON) of over 1 MB is refused before sending, naming the parameter', async () => {
		const message = await refusedBeforeSending(
			{
				resource: 'contact',
				operation: 'search',
				limit: 5,
				filtersJson: JSON.stringify({ title: ['x'.repeat(1_100_000)] }),
			},
			undefined,
			1,
		);
		expect(message).toMatch(/is longer than/);
	});
});
