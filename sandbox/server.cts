/**
 * The sandbox server: a local implementation of the Contact Data API (CONTRACT.md) on node:http.
 *
 * A request goes: admin routes (loopback only) or API routing (404/405) -> stats -> faults of
 * phase "before" -> key check (401/403) -> rate limit (429, headers) -> handler -> faults of phase
 * "after" -> answer. Every handler runs inside a catch: nothing a client sends crashes the server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	ERROR_CODES,
	HEADERS,
	TIERS,
	MIN_API_TIER,
	rateLimitClassOf,
} from '../nodes/ContactData/shared/client/contract';
import { REVOKED_KEYS, countRequest, type Account } from './accounts.cjs';
import { ADMIN_ROUTES } from './admin.cjs';
import { refuseCrossSite } from './adminGuard.cjs';
import { rewritten, type FaultRule } from './faults.cjs';
import {
	ApiError,
	answerClientError,
	apiError,
	errorAnswer,
	isLoopback,
	readJson,
	refuseRepeatedHeader,
	sendAnswer,
	sendText,
	type Answer,
} from './http.cjs';
import { API_ROUTES } from './routes/index.cjs';
import {
	matchRoute,
	type RequestContext,
	type RouteMatch,
	type StreamedAnswer,
} from './router.cjs';
import { SandboxState } from './state.cjs';
import { DEFAULT_RETRY_DELAYS_MS } from './deliveries.cjs';
import { futureBody } from './futureApi.cjs';

export interface SandboxOptions {
	/** Default 4010; 0 = a free port (tests always use 0). */
	port?: number;
	/** Data set size, default 1,000,000. */
	contacts?: number;
	/** Default 42; same seed => same data set and ids. */
	seed?: number;
	/** Default 1; a minute of rate limit lasts 60/timeScale seconds. */
	timeScale?: number;
	/** Default true; false: no 429s (headers still sent, limit never reached). */
	rateLimits?: boolean;
	/** Delays before retries of a failed webhook delivery; default about a minute in all, for 5 attempts. */
	webhookRetryDelaysMs?: number[];
	/** Fault rules active from the start. */
	faults?: FaultRule[];
}

export interface RunningSandbox {
	/** 'http://127.0.0.1:<port>' (no trailing slash): the API base URL for credentials. */
	url: string;
	port: number;
	close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_CONTACTS = 1_000_000;
export const DEFAULT_SEED = 42;

function bearerKey(req: IncomingMessage): string | undefined {
	const header = req.headers.authorization;
	const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
	return match ? match[1] : undefined;
}

function isStreamed(answer: Answer | StreamedAnswer): answer is StreamedAnswer {
	return 'stream' in answer;
}

function internalError(error: unknown): ApiError {
	if (error instanceof ApiError) return error;
	console.error('sandbox: unexpected error', error);
	return apiError('internal', 'the sandbox failed to handle this request');
}

/** The 5xx answer of an injected error. */
function faultError(rule: FaultRule): Answer {
	const status = rule.status ?? 503;
	const code = status === 500 ? 'internal' : 'unavailable';
	return errorAnswer(new ApiError(status, code, `injected fault: ${status}`, { injected: true }));
}

function malformedText(body: unknown): string {
	const text = body === undefined ? '{"error": {"code": "unavailable"' : JSON.stringify(body);
	return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

/** A 429: the error and the headers that go with it. */
class RateLimited extends ApiError {
	constructor(
		retryAfter: string,
		readonly headers: Record<string, string>,
	) {
		super(
			ERROR_CODES.rate_limited,
			'rate_limited',
			`rate limit reached; retry after ${retryAfter} s`,
			{
				retry_after: Number(retryAfter),
			},
		);
	}
}

/** 404 for an unknown path, 405 (with Allow) for a known path and another method. */
function routingError(
	match: Exclude<RouteMatch, { kind: 'found' }>,
	method: string,
	path: string,
): Answer {
	if (match.kind === 'not_found')
		return errorAnswer(apiError('not_found', `no route ${method} ${path}`));
	const error = new ApiError(
		ERROR_CODES.method_not_allowed,
		'method_not_allowed',
		`${path} does not answer ${method}`,
		{
			allowed: match.allowed,
		},
	);
	return errorAnswer(error, { allow: match.allowed.join(', ') });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class SandboxServer {
	readonly server: Server;
	private closing = false;

	constructor(readonly state: SandboxState) {
		this.server = createServer((req, res) => {
			this.handle(req, res).catch((error: unknown) => {
				console.error('sandbox: request failed', error);
				if (!res.headersSent) sendAnswer(res, errorAnswer(internalError(error)));
				else res.destroy();
			});
		});
		// Keep-alive sockets of test clients must not hold the server open after close().
		this.server.keepAliveTimeout = 5_000;
		this.server.on('clientError', answerClientError);
	}

	private get port(): number {
		return (this.server.address() as AddressInfo).port;
	}

	private context(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
		params: Record<string, string>,
		account?: Account,
	): RequestContext {
		let body: Promise<unknown> | undefined;
		return {
			state: this.state,
			get account(): Account {
				if (!account) throw new Error('this route has no caller account');
				return account;
			},
			req,
			res,
			params,
			query: url.searchParams,
			// Its own address, never the Host header: a caller must not choose where export URLs point.
			baseUrl: `http://127.0.0.1:${this.port}`,
			body: () => (body ??= readJson(req)),
		};
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
		let url: URL;
		try {
			url = new URL(req.url ?? '/', 'http://sandbox.local');
		} catch {
			sendAnswer(res, errorAnswer(apiError('invalid_request', 'malformed request target')));
			return;
		}
		const path = url.pathname;

		if (path.startsWith('/_sandbox/')) {
			await this.handleAdmin(req, res, method, url);
			return;
		}

		const match = matchRoute(API_ROUTES, method, path);
		if (match.kind !== 'found') {
			sendAnswer(res, routingError(match, method, path));
			return;
		}
		const { route, params } = match;
		const key = bearerKey(req);
		const known = key ? this.state.accounts.get(key) : undefined;
		this.state.requestsTotal++;
		const statName = `${method} ${route.template}`;
		if (known) countRequest(known, statName);

		const before = this.state.faults.take('before', method, path);
		if (before && before.kind === 'slow') await sleep(before.delay_ms ?? 1_000);
		else if (before) {
			this.applyFault(res, before, undefined, {});
			return;
		}

		let headers: Record<string, string> = {};
		let answer: Answer | StreamedAnswer;
		try {
			let account: Account | undefined;
			if (!route.public) {
				account = this.authenticate(key, known);
				headers = this.takeRate(account, method, path);
			}
			refuseRepeatedHeader(req, HEADERS.idempotencyKey, 'Idempotency-Key');
			answer = await route.handler(this.context(req, res, url, params, account));
		} catch (error) {
			answer = errorAnswer(internalError(error));
			if (error instanceof RateLimited) headers = error.headers;
		}

		const after = this.state.faults.take('after', method, path);
		if (after && after.kind === 'slow') await sleep(after.delay_ms ?? 1_000);
		else if (after) {
			this.applyFault(
				res,
				after,
				isStreamed(answer) ? undefined : answer.body,
				headers,
				isStreamed(answer) ? 200 : answer.status,
			);
			return;
		}
		if (isStreamed(answer)) {
			await answer.stream(res);
			return;
		}
		if (this.state.settings.futureApi) answer = { ...answer, body: futureBody(answer.body) };
		sendAnswer(res, { ...answer, headers: { ...headers, ...answer.headers } });
	}

	/** Counts a call against its rate-limit class and returns the headers (none for exports). */
	private takeRate(account: Account, method: string, path: string): Record<string, string> {
		const rateClass = rateLimitClassOf(method, path);
		if (!rateClass) return {};
		const decision = account.rate.take(rateClass, {
			timeScale: this.state.settings.timeScale,
			enabled: this.state.settings.rateLimits,
		});
		if (!decision.allowed) {
			account.http429++;
			throw new RateLimited(decision.retryAfter, decision.headers);
		}
		return decision.headers;
	}

	private authenticate(key: string | undefined, account: Account | undefined): Account {
		if (!key)
			throw apiError('unauthorized', 'missing API key: send Authorization: Bearer <API_KEY>');
		if (REVOKED_KEYS.has(key)) throw apiError('unauthorized', 'this API key has been revoked');
		if (!account) throw apiError('unauthorized', 'unknown API key');
		if (TIERS.indexOf(account.tier) < TIERS.indexOf(MIN_API_TIER)) {
			throw apiError(
				'tier_required',
				`API access needs the ${MIN_API_TIER} tier or higher; this account is ${account.tier}`,
				{
					tier: account.tier,
					required_tier: MIN_API_TIER,
				},
			);
		}
		return account;
	}

	private applyFault(
		res: ServerResponse,
		rule: FaultRule,
		realBody: unknown,
		headers: Record<string, string>,
		status = 200,
	): void {
		if (rule.kind === 'drop') {
			res.socket?.destroy();
			return;
		}
		if (rule.kind === 'malformed') {
			sendText(res, 200, malformedText(realBody), headers);
			return;
		}
		if (rule.kind === 'rewrite' && realBody !== undefined) {
			sendAnswer(res, { status, body: rewritten(rule, realBody), headers });
			return;
		}
		const answer = faultError(rule);
		sendAnswer(res, { ...answer, headers: { ...headers, ...answer.headers } });
	}

	private async handleAdmin(
		req: IncomingMessage,
		res: ServerResponse,
		method: string,
		url: URL,
	): Promise<void> {
		if (!isLoopback(req.socket.remoteAddress)) {
			sendAnswer(
				res,
				errorAnswer(apiError('not_found', 'admin routes answer loopback callers only')),
			);
			return;
		}
		const match = matchRoute(ADMIN_ROUTES, method, url.pathname);
		if (match.kind !== 'found') {
			sendAnswer(res, routingError(match, method, url.pathname));
			return;
		}
		const ctx = this.context(req, res, url, match.params);
		let answer: Answer | StreamedAnswer;
		try {
			refuseCrossSite(req, this.port);
			answer = await match.route.handler(ctx);
		} catch (error) {
			answer = errorAnswer(internalError(error));
		}
		if (!isStreamed(answer)) sendAnswer(res, answer);
	}

	listen(port: number): Promise<number> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, '127.0.0.1', () => {
				this.server.off('error', reject);
				resolve(this.port);
			});
		});
	}

	async close(): Promise<void> {
		if (this.closing) return;
		this.closing = true;
		await this.state.deliverer.close();
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}
}

/** Starts a sandbox on 127.0.0.1 and resolves once it answers. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const state = new SandboxState(
		options.contacts ?? DEFAULT_CONTACTS,
		options.seed ?? DEFAULT_SEED,
		{
			timeScale: options.timeScale ?? 1,
			rateLimits: options.rateLimits ?? true,
			webhookRetryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
		},
	);
	if (options.faults) state.faults.set(options.faults);
	const sandbox = new SandboxServer(state);
	const port = await sandbox.listen(options.port ?? DEFAULT_PORT);
	return { url: `http://127.0.0.1:${port}`, port, close: () => sandbox.close() };
}
