/**
 * The credential: its test (found and run the way n8n's credentials tester does:
 * test/harness/credentialTest.ts), the https rule, and the key never showing.
 */

import type { ICredentialType } from 'n8n-workflow';

import { ContactDataApi } from '../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../nodes/ContactData/ContactData.node';
import { ContactDataPollTrigger } from '../../nodes/ContactData/ContactDataPollTrigger.node';
import { ContactDataTrigger } from '../../nodes/ContactData/ContactDataTrigger.node';
import { CREDENTIAL_NAME } from '../../nodes/ContactData/shared/client/apiCredential';
import {
	CREDENTIAL_TEST,
	testContactDataApiCredential,
} from '../../nodes/ContactData/shared/client/credentialTest';
import { testCredential as runCredentialTest } from '../harness/credentialTest';
import { startTestSandbox } from '../harness/sandbox';
import { json, startFakeApi } from '../support/fakeApi.cjs';
import { listenLocally } from '../support/httpServer.cjs';
import { KEYS, everything, keyStats, run, type TestSandbox } from '../nodes/ContactData/setup';

let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ contacts: 2_000 });
});
afterAll(async () => sandbox?.close());
beforeEach(async () => sandbox.admin.reset());

const credential = new ContactDataApi();
/** Every node that uses the credential: n8n's tester looks through them for its test. */
const nodeTypes = () => [new ContactData(), new ContactDataTrigger(), new ContactDataPollTrigger()];

/** n8n's credential test as the editor shows it: OK, or the message it shows. */
async function testCredential(
	apiKey: string,
	baseUrl: string,
	timeout?: number,
): Promise<{ ok: boolean; message: string }> {
	const data = { apiKey, baseUrl, ...(timeout === undefined ? {} : { timeout }) };
	const { status, message } = await runCredentialTest(credential, data, nodeTypes());
	return { ok: status === 'OK', message };
}

/** What the node and the credential test say of a Base URL that is not a web address. */
const notAWebAddress = (baseUrl: string) =>
	`The Contact Data API credential’s Base URL "${baseUrl}" is not a valid web address: enter it as shown in the Contact Data dashboard, starting with https://`;

describe('credential test (GET /v1/credits/balance)', () => {
	it('passes for a good key and calls the balance endpoint', async () => {
		expect(await testCredential(KEYS.growth, sandbox.url)).toEqual({
			ok: true,
			message: 'Connection successful!',
		});
		expect((await keyStats(sandbox)).requests['GET /v1/credits/balance']).toBe(1);
	});

	it('passes with a trailing slash on the base URL', async () => {
		expect((await testCredential(KEYS.growth, `${sandbox.url}/`)).ok).toBe(true);
	});

	it('passes with a Base URL that ends in /v1, as copied from the API docs', async () => {
		expect(await testCredential(KEYS.growth, `${sandbox.url}/v1`)).toEqual({
			ok: true,
			message: 'Connection successful!',
		});
		expect((await keyStats(sandbox)).requests['GET /v1/credits/balance']).toBe(1);
	});

	it.each(['?region=eu', '#top'])(
		'refuses a Base URL with a query or fragment (%s), saying so, without reaching it',
		async (tail) => {
			expect(await testCredential(KEYS.growth, `${sandbox.url}${tail}`)).toEqual({
				ok: false,
				message: expect.stringMatching(/Base URL ".*" is refused: .* no query \(\?…\) or fragment/),
			});
			expect((await sandbox.admin.stats()).requests_total).toBe(0);
		},
	);

	it('fails for a revoked key with a clear message', async () => {
		const outcome = await testCredential(KEYS.revoked, sandbox.url);
		expect(outcome.ok).toBe(false);
		expect(outcome.message).toMatch(/refused: it is unknown or revoked/);
	});

	it('fails for an address that is not the API, saying so in plain words (not "Not Found")', async () => {
		const outcome = await testCredential(KEYS.growth, `${sandbox.url}/somewhere-else`);
		expect(outcome).toEqual({
			ok: false,
			message: expect.stringMatching(/^This address does not look like the Contact Data API/),
		});
	});

	it('fails for a starter key, naming the tier', async () => {
		const outcome = await testCredential(KEYS.starter, sandbox.url);
		expect(outcome).toEqual({ ok: false, message: expect.stringMatching(/Growth tier/) });
	});

	it('refuses a plain http:// base URL that is not loopback in words (not "ERR_BAD_REQUEST"), without reaching it', async () => {
		expect(await testCredential(KEYS.growth, 'http://api.contactdata.example')).toEqual({
			ok: false,
			message: expect.stringMatching(
				/^The Contact Data API credential’s Base URL "http:\/\/api\.contactdata\.example" is refused: it must start with https:\/\//,
			),
		});
	});

	it.each([
		'api.contactdata.example',
		'http//api.contactdata.example',
		'https://api contactdata.example',
		'https://',
		'https://127.0.0.1:99999',
	])(
		'says in words that a malformed Base URL (%s) is not a web address (not "ERR_INVALID_URL")',
		async (baseUrl) => {
			expect(await testCredential(KEYS.growth, baseUrl)).toEqual({
				ok: false,
				message: notAWebAddress(baseUrl),
			});
		},
	);

	it('says in words that nothing answers at the Base URL (not n8n\'s bare "ECONNREFUSED")', async () => {
		expect(await testCredential(KEYS.growth, 'http://127.0.0.1:9')).toEqual({
			ok: false,
			message:
				'Nothing answers at the Base URL "http://127.0.0.1:9" (ECONNREFUSED: the host refused the connection): check the Base URL, and that the service runs at that address',
		});
	});

	it("says the API did not answer within the credential's Timeout", async () => {
		const silent = await listenLocally(() => {}); // takes the call, never answers
		try {
			expect(await testCredential(KEYS.growth, silent.url, 1)).toEqual({
				ok: false,
				message: 'The Contact Data API did not answer within 1 seconds',
			});
		} finally {
			await silent.close();
		}
	});

	it.each([
		['an ordinary web page', 'text/html', '<!doctype html><body>Welcome</body>', 'a web page'],
		['JSON of another shape', 'application/json', '{"ok":true}', 'JSON of another shape'],
		['a balance of the wrong type', 'application/json', '{"balance":"9"}', 'JSON of another shape'],
		['an empty body', 'application/json', '', 'an empty answer'],
	])(
		'a Base URL that answers 200 with %s is not taken for the API, and says so',
		async (_what, type, body, said) => {
			const other = await listenLocally((_req, res) => {
				res.writeHead(200, { 'content-type': type }).end(body);
			});
			try {
				const outcome = await testCredential(KEYS.growth, other.url);
				expect(outcome).toEqual({
					ok: false,
					message: `The Base URL answered, but not as the Contact Data API does: ${said} came back from /v1/credits/balance where the API gives the credit balance. Check the Base URL: it is the API’s address from the Contact Data dashboard`,
				});
			} finally {
				await other.close();
			}
		},
	);

	it('names any other status it gets, and says what to do', async () => {
		const failing = await startFakeApi((_request, res) =>
			json(res, 503, { error: { code: 'unavailable', message: 'down' } }),
		);
		try {
			expect(await testCredential(KEYS.growth, failing.url)).toEqual({
				ok: false,
				message:
					'The Contact Data API answered 503 Service Unavailable, so the key could not be checked: try again later',
			});
		} finally {
			await failing.close();
		}
	});

	it("is the nodes' own test, so its words survive every n8n (n8n 1.x's tester loses a declarative test's reason)", () => {
		// n8n's tester runs a credential's declarative test first: the credential must have none.
		expect((credential as ICredentialType).test).toBeUndefined();
		for (const nodeType of nodeTypes()) {
			expect(nodeType.description.credentials).toEqual([
				{ name: CREDENTIAL_NAME, required: true, testedBy: CREDENTIAL_TEST },
			]);
			expect(nodeType.methods?.credentialTest?.[CREDENTIAL_TEST]).toBe(
				testContactDataApiCredential,
			);
		}
	});

	it('has no loopback default: the Base URL is required, with an https placeholder (n8n Cloud)', () => {
		const baseUrl = credential.properties.find((property) => property.name === 'baseUrl');
		expect(baseUrl?.default).toBe('');
		expect(baseUrl?.required).toBe(true);
		expect(baseUrl?.placeholder).toMatch(/^e\.g\. https:\/\//);
		expect(JSON.stringify(credential.properties)).not.toMatch(/127\.0\.0\.1|localhost|sandbox/i);
	});
});

describe('https rule in the node', () => {
	it.each(['http://api.contactdata.example', 'http://10.0.0.8:4010', 'ftp://127.0.0.1'])(
		'refuses %s before any request, with a clear message',
		async (baseUrl) => {
			const result = await run(sandbox, {
				parameters: { resource: 'credits', operation: 'getBalance' },
				baseUrl,
			});
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toMatch(/must start with https:\/\//);
			expect((await sandbox.admin.stats()).requests_total).toBe(0);
		},
	);

	it.each(['api.contactdata.example', 'https://api contactdata.example', 'https://'])(
		'refuses the malformed %s before any request, saying it is not a web address',
		async (baseUrl) => {
			const result = await run(sandbox, {
				parameters: { resource: 'credits', operation: 'getBalance' },
				baseUrl,
			});
			expect(result.error?.name).toBe('NodeOperationError');
			// On the canvas, the headline; what to type is below it.
			expect(`${result.error?.message}: ${result.error?.description}`).toMatch(
				`${notAWebAddress(baseUrl).replace(': enter', ': Enter')}.`,
			);
			expect((await sandbox.admin.stats()).requests_total).toBe(0);
		},
	);

	it('accepts a loopback http:// base URL (the sandbox)', async () => {
		const result = await run(sandbox, {
			parameters: { resource: 'credits', operation: 'getBalance' },
			baseUrl: sandbox.url.replace('127.0.0.1', 'localhost'),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ tier: 'growth', balance: 1_000_000 });
	});
});

describe('the API key stays secret', () => {
	it('appears in no output item, error or hint, whatever the outcome', async () => {
		const revoked = await run(sandbox, {
			parameters: { resource: 'credits', operation: 'getBalance' },
			key: KEYS.revoked,
		});
		expect(revoked.error?.message).toMatch(/revoked/);
		expect(revoked.error?.httpCode).toBe('401');
		const lost = await run(sandbox, {
			parameters: { resource: 'credits', operation: 'getBalance' },
			baseUrl: 'http://127.0.0.1:9', // nothing listens: a connection error
		});
		expect(lost.error?.message).toMatch(/^Nothing answers at the Base URL/);
		const ok = await run(sandbox, { parameters: { resource: 'credits', operation: 'getBalance' } });
		for (const [result, key] of [
			[revoked, KEYS.revoked],
			[lost, KEYS.growth],
			[ok, KEYS.growth],
		] as const) {
			expect(everything(result)).not.toContain(key);
		}
	});
});

describe('a redirect from the base URL', () => {
	it('is an error naming the Base URL, and the key is not sent on to the other address', async () => {
		const seen: Array<{ url?: string; authorization?: string }> = [];
		const server = await listenLocally((req, res) => {
			seen.push({ url: req.url, authorization: req.headers.authorization });
			if (req.url?.startsWith('/elsewhere')) {
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":1}');
				return;
			}
			res.writeHead(301, { location: `${url}/elsewhere${req.url}` }).end();
		});
		const { url } = server;
		try {
			const result = await run(sandbox, {
				parameters: { resource: 'credits', operation: 'getBalance' },
				baseUrl: url,
			});
			expect(result.error?.message).toMatch(/answered 301, a redirect/);
			expect(result.error?.description).toContain(url);
			expect(seen).toEqual([
				{ url: '/v1/credits/balance', authorization: `Bearer ${KEYS.growth}` },
			]);
		} finally {
			await server.close();
		}
	});
});

describe('the credential test and a redirecting Base URL', () => {
	it.each([301, 302, 307, 308])(
		'%s to another origin: the test fails with a plain message and the other origin gets no Authorization',
		async (status) => {
			const other = await startFakeApi((_request, res) =>
				json(res, 200, { balance: 1, tier: 'growth', usage: [], refunds: [] }),
			);
			const redirecting = await startFakeApi((request, res) => {
				res.writeHead(status, { location: `${other.url}${request.path}` }).end();
			});
			try {
				const outcome = await testCredential(KEYS.growth, redirecting.url);
				expect(outcome.ok).toBe(false);
				expect(outcome.message).toMatch(/redirects to another address/);
				expect(other.requests).toEqual([]);
				expect(redirecting.requests).toHaveLength(1);
			} finally {
				await other.close();
				await redirecting.close();
			}
		},
	);
});

describe('an error text that echoes the key', () => {
	it('is scrubbed from the message, the description and the details', async () => {
		const echoing = await startFakeApi((request, res) =>
			json(res, 400, {
				error: {
					code: 'invalid_request',
					message: `bad request for ${request.authorization ?? ''}`,
					details: { field: 'key', key: (request.authorization ?? '').replace('Bearer ', '') },
				},
			}),
		);
		try {
			const result = await run(sandbox, {
				parameters: { resource: 'credits', operation: 'getBalance' },
				baseUrl: echoing.url,
			});
			expect(result.error?.message).toMatch(/bad request for Bearer \[API key\]/);
			expect(everything(result)).not.toContain(KEYS.growth);
		} finally {
			await echoing.close();
		}
	});
});

describe('a key pasted with spaces around it, echoed by an API that reads it trimmed', () => {
	const key = KEYS.growth;
	it.each([` ${key}`, `${key} `, `  ${key}\t`])(
		'%j: neither the key as stored nor trimmed appears',
		async (stored) => {
			const echoing = await startFakeApi((request, res) => {
				const sent = (request.authorization ?? '').replace(/^Bearer /, '');
				json(res, 401, {
					error: {
						code: 'unauthorized',
						message: `unknown API key ${sent.trim()}`,
						details: { received: sent },
					},
				});
			});
			try {
				const result = await run(sandbox, {
					parameters: { resource: 'credits', operation: 'getBalance' },
					baseUrl: echoing.url,
					key: stored,
				});
				expect(echoing.requests[0]?.authorization).toContain(key);
				expect(result.error?.message).toMatch(/unknown API key \[API key\]/);
				expect(everything(result)).not.toContain(key);
			} finally {
				await echoing.close();
			}
		},
	);
});

describe('a signed export URL', () => {
	it.each(['http://files.contactdata.example/x.csv?sig=1', 'ftp://127.0.0.1/x.csv'])(
		'%s (not https, not loopback http) is not opened',
		async (url) => {
			const files = await startFakeApi((_request, res) => res.writeHead(200).end('id\r\n'));
			const api = await startFakeApi((_request, res) =>
				json(res, 202, {
					url,
					expires_at: '2030-01-01T00:00:00Z',
					format: 'csv',
					contact_count: 150_000,
				}),
			);
			try {
				const result = await run(sandbox, {
					parameters: {
						resource: 'savedList',
						operation: 'export',
						listId: { __rl: true, mode: 'id', value: 'ls_1' },
						format: 'csv',
					},
					baseUrl: api.url,
				});
				expect(result.error?.message).toMatch(/export URL the API gave is not https/);
				expect(api.requests).toHaveLength(1);
				expect(files.requests).toHaveLength(0);
			} finally {
				await files.close();
				await api.close();
			}
		},
	);
});
