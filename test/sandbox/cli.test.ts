/** `npm run sandbox`'s program: prints its URL and keys, serves, and stops cleanly on SIGTERM and SIGINT. */
import type { SearchResponse } from '../../nodes/ContactData/shared/client/contract';
import { KEYS } from '../harness/sandbox';
import { startSandboxCli as startCli } from '../support/sandboxCli.cjs';
import { call } from './client';

describe('sandbox CLI', () => {
	for (const signal of ['SIGTERM', 'SIGINT'] as const) {
		it(`prints its URL and keys, answers, and stops cleanly on ${signal}`, async () => {
			const cli = startCli({ SANDBOX_TIME_SCALE: '30' });
			const url = await cli.ready;
			for (const key of Object.values(KEYS)) expect(cli.output()).toContain(key);
			expect(cli.output()).toContain('2,000 contacts');
			expect(cli.output()).toContain('time scale 30');
			const reply = await call<SearchResponse>(url, 'POST', '/v1/search', { limit: 1 });
			expect(reply.status).toBe(200);
			expect(reply.body.total).toBe(2_000);
			const code = await cli.stop(signal);
			expect(code).toBe(0);
			expect(cli.output()).toContain(`${signal}: stopping the sandbox`);
			await expect(call(url, 'GET', '/v1/lists')).rejects.toThrow();
		});
	}

	it('refuses invalid settings with a message naming the variable', async () => {
		const cli = startCli({ SANDBOX_CONTACTS: 'lots' });
		await expect(cli.ready).rejects.toThrow(/SANDBOX_CONTACTS=lots is not valid/);
		expect(cli.exitCode()).toBe(1);
	});
});
