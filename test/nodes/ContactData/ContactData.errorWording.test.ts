/**
 * Error messages as the user reads them: "[item N]" on every error item of a run of several items,
 * no raw system code in a headline (n8n replaces such a message with its own text for the code),
 * and a message that names a URL kept as written even when the URL holds a code-like word.
 */
import { PATHS } from '../../../nodes/ContactData/shared/client/contract';
import { startFakeApi, json, type FakeApi } from '../../support/fakeApi.cjs';
import { startTestSandbox } from '../../harness/sandbox';
import { closedPort } from '../../support/httpServer.cjs';
import { contacts, run, type TestSandbox } from './setup';

let sandbox: TestSandbox;
let fake: FakeApi | undefined;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 1_000 });
});
afterAll(async () => sandbox?.close());
afterEach(async () => {
	await fake?.close();
	fake = undefined;
});

const getBalance = { resource: 'credits', operation: 'getBalance' };

describe('Unlock under continueOnFail', () => {
	it('an id refused before sending is an error item that names its item, as Enrich’s are', async () => {
		const [good] = (await contacts(sandbox, 1)).map((contact) => contact.id);
		const result = await run(sandbox, {
			parameters: { resource: 'contact', operation: 'unlock', maxCredits: 10 },
			inputItems: [{ json: { id: good } }, { json: { id: 'ls_123' } }],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items[1]).toMatchObject({
			json: {
				error: expect.stringMatching(
					/Contact ID Field "id": "ls_123" is not a contact id.* \[item 1\]$/,
				),
			},
			pairedItem: { item: 1 },
		});
	});
});

describe('an export download that finds nothing at the signed URL', () => {
	it('fails in words, with the system code in the description', async () => {
		const downloadUrl = `http://127.0.0.1:${await closedPort()}${PATHS.list('ls_big')}/file?signature=x`;
		fake = await startFakeApi((request, res) => {
			if (request.method === 'POST') {
				return json(res, 202, {
					url: downloadUrl,
					expires_at: '2099-01-01T00:00:00Z',
					format: 'csv',
					contact_count: 150_000,
				});
			}
			json(res, 200, {
				id: 'ls_big',
				name: 'Big',
				filters: null,
				contact_count: 150_000,
				created_at: 'x',
				updated_at: 'x',
			});
		});
		const result = await run(sandbox, {
			parameters: {
				resource: 'savedList',
				operation: 'export',
				listId: { __rl: true, mode: 'id', value: 'ls_big' },
				format: 'csv',
			},
			baseUrl: fake.url,
		});
		expect(result.error?.message).toBe(
			'The export file did not arrive: the host refused the connection',
		);
		expect(result.error?.description).toMatch(/ECONNREFUSED/);
	}, 60_000);
});

describe('a message that names a URL holding a code-like word (EPERM in "deepermind")', () => {
	it('a Base URL where nothing answers is named as written', async () => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}/deepermind`;
		const result = await run(sandbox, { parameters: getBalance, baseUrl });
		expect(result.error?.message).toBe(`Nothing answers at the Base URL "${baseUrl}"`);
	});

	it('a refused Base URL is named as written', async () => {
		const result = await run(sandbox, {
			parameters: getBalance,
			baseUrl: 'http://deepermind.example',
		});
		expect(result.error?.message).toMatch(
			/^The Contact Data API credential’s Base URL "http:\/\/deepermind\.example" is refused/,
		);
	});
});

describe('an API answer naming a value of the user’s that holds a code-like word', () => {
	it('is named as written', async () => {
		const result = await run(sandbox, {
			parameters: {
				resource: 'savedList',
				operation: 'get',
				listId: { __rl: true, mode: 'id', value: 'ls_deepermind' },
			},
		});
		expect(result.error?.message).toBe('Saved List: no saved list has the id ls_deepermind');
	});
});

describe('a refused value of the user’s holding a code-like word', () => {
	it('is named as written', async () => {
		const result = await run(sandbox, {
			parameters: {
				resource: 'contact',
				operation: 'unlock',
				contactIdsFrom: 'expression',
				contactIds: 'https://deepermind.example/ct_1',
				maxCredits: 10,
			},
		});
		expect(result.error?.message).toMatch(
			/^Contact IDs: "https:\/\/deepermind\.example\/ct_1" is not a contact id/,
		);
	});
});

describe('a refused Base URL in an operation that charges', () => {
	it.each([['http://api.contactdata.example'], ['http://deepermind.example']])(
		'%s: named as written, and the calls said not sent, not charged',
		async (baseUrl) => {
			const ids = (await contacts(sandbox, 2)).map((contact) => contact.id);
			const result = await run(sandbox, {
				parameters: { resource: 'contact', operation: 'unlock', maxCredits: 10 },
				inputItems: ids.map((id) => ({ json: { id } })),
				baseUrl,
			});
			const message = result.error?.message ?? '';
			expect(message).toMatch(/^The Contact Data API credential’s Base URL ".*" is refused: /);
			// On the canvas what the call did is said below the message.
			const said = `${message} ${result.error?.description ?? ''}`;
			expect(said).not.toMatch(/was sent|may have charged/);
			expect(result.error?.description).toMatch(
				/^\/v1\/unlock .* was refused, so this call was not charged\./,
			);
		},
	);
});
