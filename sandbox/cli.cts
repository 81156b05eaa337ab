/**
 * `npm run sandbox`: starts the sandbox on 127.0.0.1 with settings from the environment, prints
 * its base URL and keys, and stops cleanly on Ctrl-C or SIGTERM.
 */
import { KEYS } from './accounts.cjs';
import { faultRulesSchema } from './faults.cjs';
import {
	DEFAULT_CONTACTS,
	DEFAULT_PORT,
	DEFAULT_SEED,
	startSandbox,
	type SandboxOptions,
} from './server.cjs';

function numberFrom(name: string, fallback: number, check: (value: number) => boolean): number {
	const raw = process.env[name];
	if (raw === undefined || raw.trim() === '') return fallback;
	const value = Number(raw);
	if (!Number.isFinite(value) || !check(value)) {
		throw new Error(`${name}=${raw} is not valid`);
	}
	return value;
}

export function optionsFromEnvironment(): SandboxOptions {
	const options: SandboxOptions = {
		port: numberFrom(
			'SANDBOX_PORT',
			DEFAULT_PORT,
			(v) => Number.isInteger(v) && v >= 0 && v < 65536,
		),
		contacts: numberFrom(
			'SANDBOX_CONTACTS',
			DEFAULT_CONTACTS,
			(v) => Number.isInteger(v) && v >= 1 && v <= 50_000_000,
		),
		seed: numberFrom('SANDBOX_SEED', DEFAULT_SEED, Number.isInteger),
		timeScale: numberFrom('SANDBOX_TIME_SCALE', 1, (v) => v > 0),
		rateLimits: !/^(off|false|0|no)$/i.test(process.env.SANDBOX_RATE_LIMITS ?? ''),
	};
	const faults = process.env.SANDBOX_FAULTS;
	if (faults && faults.trim() !== '') {
		const parsed: unknown = JSON.parse(faults);
		options.faults = faultRulesSchema.parse(
			Array.isArray(parsed) ? { rules: parsed } : parsed,
		).rules;
	}
	return options;
}

async function main(): Promise<void> {
	const options = optionsFromEnvironment();
	const started = Date.now();
	const sandbox = await startSandbox(options);
	const lines = [
		`Contact Data sandbox listening on ${sandbox.url}`,
		`  ${options.contacts?.toLocaleString('en-US')} contacts (seed ${options.seed}), ready in ${Date.now() - started} ms`,
		`  time scale ${options.timeScale}, rate limits ${options.rateLimits ? 'on' : 'off'}${options.faults ? `, ${options.faults.length} fault rule(s)` : ''}`,
		'  keys:',
		`    ${KEYS.growth}   growth tier, 1,000,000 credits`,
		`    ${KEYS.empty}    growth tier, 0 credits`,
		`    ${KEYS.starter}  starter tier (403 tier_required)`,
		`    ${KEYS.revoked}  revoked (401 unauthorized)`,
		`  admin: ${sandbox.url}/_sandbox/{reset,balance,settings,faults,events,deliveries,stats}`,
		'Press Ctrl-C to stop.',
	];
	console.log(lines.join('\n'));
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping the sandbox`);
		sandbox.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

/** Runs the program: a failure to start ends the process with status 1. */
export function run(): void {
	main().catch((error: unknown) => {
		console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	});
}

if (require.main === module) run();
