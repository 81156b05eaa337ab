import { createHmac } from 'node:crypto';

import { DEPARTMENTS } from '../../../../../sandbox/vocab.cjs';
import {
	contactIdSchema,
	isContactId,
	KNOWN_DEPARTMENTS,
	LIST_ID_PATTERN,
	matchPathTemplate,
	PATHS,
	rateLimitClassOf,
	searchFiltersSchema,
	knownSearchFiltersSchema,
	unlockRequestSchema,
	webhookSignature,
} from '../../../../../nodes/ContactData/shared/client/contract';

describe('contract module', () => {
	it('signs webhooks per Standard Webhooks: HMAC-SHA256 over "id.timestamp.body" keyed by the decoded secret', () => {
		const key = Buffer.from('0123456789abcdef0123456789abcdef');
		const secret = `whsec_${key.toString('base64')}`;
		const body = '{"id":"evt_1","type":"job_change"}';
		const expected = createHmac('sha256', key).update(`evt_1.1700000000.${body}`).digest('base64');
		expect(webhookSignature(secret, 'evt_1', 1700000000, body)).toBe(`v1,${expected}`);
		expect(webhookSignature(secret, 'evt_2', 1700000000, body)).not.toBe(`v1,${expected}`);
	});

	it('checks a contact id without zod exactly as its schema does', () => {
		const long = `ct_${'x'.repeat(61)}`;
		for (const id of [
			'ct_1',
			'ct_',
			long,
			`${long}y`,
			'CT_1',
			'ls_1',
			' ct_1',
			'',
			7,
			null,
			['ct_1'],
		])
			expect([id, isContactId(id)]).toEqual([id, contactIdSchema.safeParse(id).success]);
		expect([isContactId(long), isContactId(`${long}y`)]).toEqual([true, false]);
	});

	it('classes requests for rate limiting as the contract does', () => {
		expect(rateLimitClassOf('POST', PATHS.search)).toBe('search');
		expect(rateLimitClassOf('post', PATHS.unlock)).toBe('charged');
		expect(rateLimitClassOf('POST', PATHS.enrich)).toBe('charged');
		expect(rateLimitClassOf('GET', PATHS.lists)).toBe('other');
		expect(rateLimitClassOf('POST', PATHS.listExport('ls_1'))).toBeNull();
	});

	it('passes further filters through for clients but refuses them in the strict (sandbox) schema', () => {
		const filters = { title: ['cto'], company_size: '10-50', revenue_band: ['1m-10m'] };
		expect(searchFiltersSchema.parse(filters)).toEqual(filters);
		expect(knownSearchFiltersSchema.safeParse(filters).success).toBe(false);
		expect(searchFiltersSchema.safeParse({ company_size: '50-10' }).success).toBe(false);
		expect(searchFiltersSchema.safeParse({ seniority: ['boss'] }).success).toBe(false);
	});

	it('refuses a repeated id in an unlock body', () => {
		expect(unlockRequestSchema.safeParse({ ids: ['ct_1', 'ct_1'] }).success).toBe(false);
		expect(unlockRequestSchema.parse({ ids: ['ct_1', 'ct_2'] })).toEqual({
			ids: ['ct_1', 'ct_2'],
			level: 'basic',
		});
	});

	it('lists the departments the sandbox holds (industries and tech stack are the same lists)', () => {
		expect(DEPARTMENTS.map((department) => department.key).sort()).toEqual(
			[...KNOWN_DEPARTMENTS].sort(),
		);
	});

	it('list ids that would change a path do not fit the list id pattern', () => {
		for (const id of ['..', '.', '', 'ls_', 'ls_a/..', 'ls_a?b', 'ls_a#b', 'ls_a b', 'ls_%2e']) {
			expect(LIST_ID_PATTERN.test(id)).toBe(false);
		}
		expect(LIST_ID_PATTERN.test('ls_23266b532351e230')).toBe(true);
	});

	it('matches a path template to the letter: its text is never read as a pattern', () => {
		expect(matchPathTemplate('/v1/lists/:id/contacts', '/v1/lists/ls_a%2Fb/contacts')).toEqual({
			id: 'ls_a/b',
		});
		expect(matchPathTemplate('/v1/lists/:id', '/v1/lists/ls_a/contacts')).toBeNull();
		expect(matchPathTemplate('/v1/lists/:id', '/v1/lists/%E0%A4%A')).toBeNull();
		expect(matchPathTemplate('/v1/export.csv', '/v1/exportxcsv')).toBeNull();
		expect(matchPathTemplate('/v1/(a)+', '/v1/aa')).toBeNull();
		expect(matchPathTemplate('/v1/(a)+', '/v1/(a)+')).toEqual({});
	});
});
