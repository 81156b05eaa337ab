/**
 * Every call ends: a timeout on every request, an address where nothing answers, Return All that
 * stops on a cursor going round in circles, and Stop honoured during every wait. Run against small
 * misbehaving APIs on loopback.
 */

import { sleep } from 'n8n-workflow';

import { startTestSandbox } from '../../../../harness/sandbox';
import { json, startFakeApi, type FakeApi } from '../../../../support/fakeApi.cjs';
import { closedPort } from '../../../../support/httpServer.cjs';
import { run, type TestSandbox } from '../../setup';

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
const searchAll = { resource: 'contact', operation: 'search', returnAll: true };

function preview(id: string) {
	return {
		id,
		first_name: 'Ada',
		last_name: 'L.',
		title: 'CTO',
		seniority: 'c_suite',
		department: 'engineering',
		company: {
			name: 'Acme',
			domain: 'acme.com',
			industry: 'software',
			size: 10,
			funding_stage: 'seed',
			tech_stack: [],
		},
		location: { country: 'US', region: null, city: null },
		has_email: true,
		has_phone: false,
		unlocked: false,
	};
}

/** Resolves once the fake API has received `count` requests. */
function afterRequests(api: () => FakeApi | undefined, count: number): Promise<void> {
	return new Promise((resolve) => {
		const poll = () =>
			(api()?.requests.length ?? 0) >= count ? resolve() : void sleep(20).then(poll);
		poll();
	});
}

describe('a timeout on every request', () => {
	it('an API that accepts the connection and never answers fails the call within the timeout, once', async () => {
		fake = await startFakeApi(() => {
			/* never answers */
		});
		const started = Date.now();
		const result = await run(sandbox, {
			parameters: getBalance,
			baseUrl: fake.url,
			timeoutSeconds: 2,
		});
		const elapsed = Date.now() - started;
		expect(result.error?.message).toMatch(/did not answer within 2 seconds/);
		expect(fake.requests).toHaveLength(1);
		// Generous: 2 s of timeout plus engine start on a busy machine.
		expect(elapsed).toBeLessThan(15_000);
	}, 60_000);

	it('defaults to 60 seconds (the credential field)', async () => {
		const { ContactDataApi } = await import(
			'../../../../../credentials/ContactDataApi.credentials'
		);
		const timeout = new ContactDataApi().properties.find((property) => property.name === 'timeout');
		expect(timeout?.default).toBe(60);
	});
});

describe('a Base URL where nothing answers', () => {
	it('is an error that says so in words, naming the Base URL, with the code underneath', async () => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}`;
		const result = await run(sandbox, { parameters: getBalance, baseUrl });
		expect(result.error?.message).toBe(`Nothing answers at the Base URL "${baseUrl}"`);
		expect(result.error?.description).toBe(
			'Check the Base URL in the Contact Data API credential, and that the service is running at that address (ECONNREFUSED: the host refused the connection).',
		);
	});
});

describe('Return All stops when the cursor goes round in circles', () => {
	it('a repeated cursor is a clear error after a few calls', async () => {
		fake = await startFakeApi((_request, res) => {
			if (fake && fake.requests.length > 200)
				return json(res, 400, { error: { code: 'invalid_request', message: 'runaway' } });
			const page = fake?.requests.length ?? 0;
			json(res, 200, {
				results: [preview(`ct_${page}`)],
				total: 5_000,
				next_cursor: 'cur_same',
				truncated: false,
			});
		});
		const result = await run(sandbox, { parameters: searchAll, baseUrl: fake.url });
		expect(result.error?.message).toMatch(/gave the same cursor twice/);
		expect(fake.requests.length).toBeLessThanOrEqual(3);
	}, 60_000);

	it('a page that adds no new contact is a clear error after a few calls', async () => {
		fake = await startFakeApi((_request, res) => {
			if (fake && fake.requests.length > 200)
				return json(res, 400, { error: { code: 'invalid_request', message: 'runaway' } });
			const page = fake?.requests.length ?? 0;
			json(res, 200, {
				results: [preview('ct_1'), preview('ct_2')],
				total: 5_000,
				next_cursor: `cur_${page}`,
				truncated: false,
			});
		});
		const result = await run(sandbox, { parameters: searchAll, baseUrl: fake.url });
		expect(result.error?.message).toMatch(/added nothing new/);
		expect(fake.requests.length).toBeLessThanOrEqual(3);
	}, 60_000);

	it('Saved List → Get Many stops the same way', async () => {
		fake = await startFakeApi((_request, res) => {
			if (fake && fake.requests.length > 200)
				return json(res, 400, { error: { code: 'invalid_request', message: 'runaway' } });
			const list = {
				id: 'ls_1',
				name: 'A',
				filters: null,
				contact_count: 1,
				created_at: '2026-01-01T00:00:00Z',
				updated_at: '2026-01-01T00:00:00Z',
			};
			json(res, 200, { lists: [list], next_cursor: 'cur_same' });
		});
		const result = await run(sandbox, {
			parameters: { resource: 'savedList', operation: 'getMany', returnAll: true },
			baseUrl: fake.url,
		});
		expect(result.error?.message).toMatch(/same cursor twice|added nothing new/);
		expect(fake.requests.length).toBeLessThanOrEqual(3);
	}, 60_000);
});

describe('Stop ends every wait', () => {
	async function stopDuring(answer: Parameters<typeof startFakeApi>[0], afterCalls = 1) {
		fake = await startFakeApi(answer);
		let stoppedAt = 0;
		const stop = afterRequests(() => fake, afterCalls).then(async () => {
			// Into the wait that follows the first answer.
			await sleep(300);
			stoppedAt = Date.now();
		});
		const result = await run(sandbox, {
			parameters: getBalance,
			baseUrl: fake.url,
			stopWhen: stop,
		});
		return { result, afterStop: Date.now() - stoppedAt, calls: fake.requests.length };
	}

	// 3,000,000 s is past Node's longest timer (2^31 ms, 24.8 days): waited too, not sent again at once.
	it.each(['30', '3000000'])(
		'during a Retry-After wait of %s s',
		async (retryAfter) => {
			const { afterStop, calls } = await stopDuring((_request, res) =>
				json(
					res,
					429,
					{ error: { code: 'rate_limited', message: 'slow down' } },
					{ 'retry-after': retryAfter },
				),
			);
			expect(calls).toBe(1);
			// The wait itself is 30 s or more; a generous bound for a busy machine.
			expect(afterStop).toBeLessThan(5_000);
		},
		60_000,
	);

	it('during the backoff after a 503 (the fourth failure waits 4 s)', async () => {
		const { afterStop, calls } = await stopDuring(
			(_request, res) => json(res, 503, { error: { code: 'unavailable', message: 'down' } }),
			4,
		);
		expect(calls).toBe(4);
		expect(afterStop).toBeLessThan(3_000);
	}, 60_000);
});

describe('an answer that is not the API’s is named as what it was', () => {
	it('a garbled 200, every time: no HTTP status the API never sent', async () => {
		fake = await startFakeApi((_request, res) =>
			res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>'),
		);
		const result = await run(sandbox, { parameters: getBalance, baseUrl: fake.url });
		// Before: "The Contact Data API call failed: …", httpCode 503.
		expect(result.error?.httpCode).not.toBe('503');
		expect(result.error?.message).toMatch(/not readable/);
		expect(result.error?.message).not.toMatch(/\b(failed|error|failure|problem)\b/i);
		expect(fake.requests).toHaveLength(5);
	}, 60_000);

	it('a connection dropped every time: no HTTP status the API never sent', async () => {
		fake = await startFakeApi((_request, res) => res.socket?.destroy());
		const result = await run(sandbox, { parameters: getBalance, baseUrl: fake.url });
		expect(result.error?.httpCode).not.toBe('503');
		expect(result.error?.message).toMatch(/connection was lost/);
		expect(fake.requests).toHaveLength(5);
	}, 60_000);

	it('a 503 every time keeps its real status', async () => {
		fake = await startFakeApi((_request, res) =>
			json(res, 503, { error: { code: 'unavailable', message: 'down' } }),
		);
		const result = await run(sandbox, { parameters: getBalance, baseUrl: fake.url });
		expect(result.error?.httpCode).toBe('503');
		expect(result.error?.message).toMatch(/503/);
	}, 60_000);
});
