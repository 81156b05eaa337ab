/** `npm run sandbox`'s program: prints its URL and keys, serves, and stops cleanly on SIGTERM and SIGINT. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

import { KEYS } from '../helpers/sandbox';
import { call } from './client';

const ROOT = path.resolve(__dirname, '../..');

/** Runs the built sandbox (build/sandbox/cli.cjs, what `npm run sandbox` starts; `npm test` builds it first). */
function startCli(env: Record<string, string>) {
	const child = spawn(process.execPath, [path.join(ROOT, 'build/sandbox/cli.cjs')], {
		cwd: ROOT,
		env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_CONTACTS: '2000', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const ready = new Promise<string>((resolve, reject) => {
		const timer = setInterval(() => {
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
			if (match) {
				clearInterval(timer);
				resolve(match[1]);
			}
		}, 20);
		child.once('exit', () => {
			clearInterval(timer);
			reject(new Error(`the sandbox exited early: ${output}`));
		});
	});
	return { child, ready, output: () => output };
}

describe('sandbox CLI', () => {
	for (const signal of ['SIGTERM', 'SIGINT'] as const) {
		it(`prints its URL and keys, answers, and stops cleanly on ${signal}`, async () => {
			const cli = startCli({ SANDBOX_TIME_SCALE: '30' });
			const url = await cli.ready;
			for (const key of Object.values(KEYS)) expect(cli.output()).toContain(key);
			expect(cli.output()).toContain('2,000 contacts');
			expect(cli.output()).toContain('time scale 30');
			const reply = await call(url, 'POST', '/v1/search', { limit: 1 });
			expect(reply.status).toBe(200);
			expect(reply.body.total).toBe(2_000);
			const exited = once(cli.child, 'exit');
			cli.child.kill(signal);
			const [code] = await exited;
			expect(code).toBe(0);
			expect(cli.output()).toContain(`${signal}: stopping the sandbox`);
			await expect(call(url, 'GET', '/v1/lists')).rejects.toThrow();
		});
	}

	it('refuses invalid settings with a message naming the variable', async () => {
		const cli = startCli({ SANDBOX_CONTACTS: 'lots' });
		await expect(cli.ready).rejects.toThrow(/SANDBOX_CONTACTS=lots is not valid/);
		expect(cli.child.exitCode).toBe(1);
	});
});
