/**
 * A fake Contact Data API on loopback, charging as test/model/accounts.ts says, with each charging
 * request's fault drawn from the scenario. It records what it debited, to whom and in which node
 * run (`boundary` names the run; the workflow's marker node calls it between runs).
 */
import {
	listenSwitchably,
	type IncomingMessage,
	type ServerResponse,
	type SwitchableServer,
} from '../support/switchableServer.cjs';
import { json } from '../support/fakeApi.cjs';

import {
	Account,
	priceEnrich,
	priceUnlock,
	type Answer,
	type Level,
	type Priced,
} from './accounts';
import { OVERCHARGE, reportedCharge, type Fault } from './faults';

/** One charging request as the fake received it. */
export interface Sent {
	run: string;
	apiKey: string;
	key: string;
	/** The contacts asked for (Unlock) or the person's email (Enrich). */
	ids: string[];
	level: Level;
	fault: Fault;
	replayed: boolean;
	debited: number;
	charged: string[];
	worstCase: number;
	/** The 2xx answer reached the node (not lost, not timed out). */
	delivered: boolean;
	/** The contacts (or the person) the delivered answer gave. */
	answered: string[];
	status: number;
}

const RATE_HEADERS = {
	'x-ratelimit-limit': '60',
	'x-ratelimit-remaining': '59',
	'x-ratelimit-reset': '1',
};
/** The Retry-After of a 429, in seconds: the node gives up after about five. */
export const RETRY_AFTER_S = 60;

export class FakeApi {
	url = '';
	accounts = new Map<string, Account>();
	sent: Sent[] = [];
	run = '';
	private faults: Fault[] = [];
	private next = 0;
	private stuck = new Set<string>();
	private hanging = new Set<ServerResponse>();
	private server: SwitchableServer | undefined;

	async start(): Promise<void> {
		this.server = await listenSwitchably((req, res) => this.receive(req, res));
		this.url = this.server.url;
	}

	async stop(): Promise<void> {
		this.dropHanging();
		await this.server?.close();
	}

	/** A new scenario: its faults, in request order; accounts come with each new API key. */
	async begin(faults: Fault[]): Promise<void> {
		this.dropHanging();
		this.sent = [];
		this.faults = faults;
		this.next = 0;
		this.stuck.clear();
		await this.boundary('');
	}

	/** A node run begins (or the scenario): a stuck 429 ends, and the address listens again. */
	async boundary(run: string): Promise<void> {
		this.run = run;
		this.stuck.clear();
		await this.server!.listen();
		if (this.faults[this.next] === 'refused') this.refuseFromNow();
	}

	accountOf(apiKey: string): Account {
		const account = this.accounts.get(apiKey) ?? new Account();
		this.accounts.set(apiKey, account);
		return account;
	}

	private refuseFromNow(): void {
		this.next++;
		this.server!.refuse();
	}

	private dropHanging(): void {
		for (const res of this.hanging) res.destroy();
		this.hanging.clear();
	}

	private receive(req: IncomingMessage, res: ServerResponse): void {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => this.answer(req, res, Buffer.concat(chunks).toString('utf8')));
	}

	private answer(req: IncomingMessage, res: ServerResponse, text: string): void {
		const path = new URL(req.url ?? '/', 'http://fake').pathname;
		const apiKey = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
		if (req.method !== 'POST' || !['/v1/unlock', '/v1/enrich'].includes(path))
			return json(res, 404, { error: { code: 'not_found', message: `No ${path}` } });
		const body = JSON.parse(text) as {
			ids?: string[];
			email?: string;
			linkedin_url?: string;
			level?: Level;
		};
		const sent: Sent = {
			run: this.run,
			apiKey,
			key: String(req.headers['idempotency-key'] ?? ''),
			ids: body.ids ?? [String(body.email ?? body.linkedin_url ?? '')],
			level: body.level ?? 'basic',
			fault: this.faults[this.next++] ?? 'none',
			replayed: false,
			debited: 0,
			charged: [],
			worstCase: 0,
			delivered: false,
			answered: [],
			status: 0,
		};
		this.sent.push(sent);
		const account = this.accountOf(apiKey);
		const priced =
			path === '/v1/unlock'
				? priceUnlock(account, sent.ids, sent.level)
				: priceEnrich(account, sent.ids[0], sent.level);
		sent.worstCase = priced.worstCase;
		const answer = this.carryOut(account, sent, canonical(body), priced);
		if (answer) this.deliver(res, sent, answer);
		else if (sent.fault === 'timeout') this.hanging.add(res);
		else res.destroy();
	}

	/** What the API does with the call; undefined when no answer goes back. */
	private carryOut(account: Account, sent: Sent, body: string, priced: Priced): Answer | undefined {
		const { fault } = sent;
		const first = account.keys.get(sent.key);
		if (first && first.body !== body) return error(409, 'conflict');
		if (first) return ((sent.replayed = true), first.answer);
		const stuckKey = `${sent.apiKey}|${sent.key}`;
		if (fault === 'rateLimited' || this.stuck.has(stuckKey)) {
			this.stuck.add(stuckKey);
			return error(429, 'rate_limited');
		}
		if (fault === 'lostBefore') return undefined;
		if (fault === 'unavailable') return error(503, 'unavailable');
		if (fault === 'noBalance') return error(402, 'insufficient_credits');
		const answer = this.charge(account, sent, priced);
		if (answer.status < 300 && sent.key) account.keys.set(sent.key, { body, answer });
		return fault === 'lostAfter' || fault === 'timeout' ? undefined : answer;
	}

	/** Debits the account as the contract says (more, for an overcharging API); the answer reports it. */
	private charge(account: Account, sent: Sent, priced: Priced): Answer {
		if (priced.answer.status >= 300) return priced.answer;
		const answer = structuredClone(priced.answer) as {
			status: number;
			body: Record<string, unknown>;
		};
		let { cost } = priced;
		let charged = priced.charged;
		if (sent.fault.startsWith('omitted') && Array.isArray(answer.body.contacts)) {
			const left = (answer.body.contacts as Array<{ id: string }>).slice(0, -1);
			answer.body.contacts = left;
			charged = charged.filter((id) => left.some((entry) => entry.id === id));
			cost = charged.reduce((sum, id) => sum + account.priceOf(id, priced.level), 0);
		}
		if (sent.fault === 'overcharge') cost = priced.worstCase + OVERCHARGE;
		account.hold(charged, priced.level);
		account.balance -= cost;
		Object.assign(sent, { debited: cost, charged });
		answer.body.credits_charged = reportedCharge(sent.fault, cost, priced.worstCase);
		answer.body.credits_remaining = account.balance;
		return answer;
	}

	private deliver(res: ServerResponse, sent: Sent, answer: Answer): void {
		const replayHeader =
			(sent.replayed && sent.fault !== 'replayWithout') ||
			(!sent.replayed && sent.fault === 'replayForged');
		const headers: Record<string, string> = { ...RATE_HEADERS };
		if (replayHeader && answer.status < 300) headers['idempotent-replayed'] = 'true';
		if (answer.status === 429) headers['retry-after'] = String(RETRY_AFTER_S);
		sent.status = answer.status;
		sent.delivered = answer.status < 300;
		if (sent.delivered) sent.answered = answeredIn(answer, sent.ids);
		const refuseNext = this.faults[this.next] === 'refused';
		if (refuseNext) headers.connection = 'close';
		json(res, answer.status, answer.body, headers);
		if (refuseNext) this.refuseFromNow();
	}
}

/** The contacts a 2xx answer gives (Unlock), or the person it found (Enrich, by the email asked). */
function answeredIn(answer: Answer, asked: string[]): string[] {
	const body = answer.body as { contacts?: Array<{ id: string; error?: unknown }> };
	if (!body.contacts) return asked;
	return body.contacts.filter((entry) => !entry.error).map((entry) => entry.id);
}

function error(status: number, code: string): Answer {
	return { status, body: { error: { code, message: `${code} (fake)` } } };
}

/** A body as parsed JSON compares: keys in order. */
function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, inner: unknown) =>
		inner && typeof inner === 'object' && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
			: inner,
	);
}
