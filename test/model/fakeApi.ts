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
import { now, realSliceOf, timeScale } from '../../nodes/ContactData/shared/client/clock';
import { OVERCHARGE, REPLAY_FAULTS, reportedCharge, type Fault } from './faults';

/** One charging request as the fake received it. */
export interface Sent {
	run: string;
	apiKey: string;
	key: string;
	/** The contacts asked for (Unlock) or the person's email (Enrich). */
	ids: string[];
	level: Level;
	/** When it was received, in the node's clock (a day cap counts a call in the day it is sent). */
	at: number;
	/** The clock once it was carried out (past midnight, when the scenario moves it then). */
	after: number;
	fault: Fault;
	/** The fault that took effect (a replay ignores some); `none` when none did. */
	effect: Fault;
	replayed: boolean;
	/** Its key was carried out before: whatever became of it, it charged nothing. */
	repeat: boolean;
	debited: number;
	charged: string[];
	worstCase: number;
	/** Its answer left out an id it was asked for. */
	leftOut: boolean;
	/** Stop was pressed while it was on its way: its answer may never be read. */
	stopped: boolean;
	/** The API carried it out and charged nothing: every contact was held already. */
	free: boolean;
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
	private received = 0;
	private scenario = 0;
	/** How far the scenario moved the clock on (to midnight): no wait of the node's. */
	movedMs = 0;
	private at: { midnightAfter?: number; stopAt?: number } = {};
	private pressStop = () => {};
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

	/**
	 * A new scenario: its faults, in request order; after which request the clock passes midnight
	 * (UTC), and during which Stop is pressed. Accounts come with each new API key.
	 */
	async begin(
		faults: Fault[],
		at: { midnightAfter?: number; stopAt?: number } = {},
	): Promise<void> {
		this.dropHanging();
		this.scenario++;
		this.sent = [];
		this.faults = faults;
		this.next = 0;
		this.received = 0;
		this.movedMs = 0;
		this.at = at;
		this.stuck.clear();
		await this.boundary('');
	}

	/** Settles when Stop is to be pressed in the execution about to start (if ever). */
	stopPressed(): Promise<void> {
		return new Promise((resolve) => (this.pressStop = resolve));
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
		const index = this.received++;
		const { run, scenario } = this;
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			if (scenario === this.scenario) this.answer(req, res, text, { index, run });
			else res.destroy(); // a request of an earlier scenario: none of this one's
		});
	}

	private answer(
		req: IncomingMessage,
		res: ServerResponse,
		text: string,
		{ index, run }: { index: number; run: string },
	): void {
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
			run,
			apiKey,
			key: String(req.headers['idempotency-key'] ?? ''),
			ids: body.ids ?? [String(body.email ?? body.linkedin_url ?? '')],
			level: body.level ?? 'basic',
			at: now(),
			after: 0,
			fault: this.faults[this.next++] ?? 'none',
			effect: 'none',
			replayed: false,
			repeat: false,
			debited: 0,
			charged: [],
			worstCase: 0,
			free: false,
			leftOut: false,
			stopped: index === this.at.stopAt,
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
		if (index === this.at.midnightAfter) this.movedMs += passMidnight();
		sent.after = now();
		// Stop is pressed while the request is on its way: the API carries it out, and its answer
		// never comes (so the node meets Stop inside the call, every time).
		if (sent.stopped) this.pressStop();
		if (answer && !sent.stopped) return this.deliver(res, sent, answer);
		if (sent.effect === 'timeout' || sent.stopped) this.hanging.add(res);
		else res.destroy();
		if (this.faults[this.next] === 'refused') this.refuseFromNow();
	}

	/** What the API does with the call; undefined when no answer goes back. */
	private carryOut(account: Account, sent: Sent, body: string, priced: Priced): Answer | undefined {
		const { fault } = sent;
		const first = account.keys.get(sent.key);
		if (first && first.body !== body) return error(409, 'conflict');
		sent.repeat = first !== undefined;
		// On a key carried out before only what may meet any request takes effect; a request Stop
		// cuts off is carried out as the contract says (the node never learns its charge).
		const effect = (!first || REPLAY_FAULTS.has(fault)) && !sent.stopped ? fault : 'none';
		sent.effect = effect;
		const stuckKey = `${sent.apiKey}|${sent.key}`;
		if (effect === 'rateLimited' || this.stuck.has(stuckKey)) {
			this.stuck.add(stuckKey);
			sent.effect = 'rateLimited';
			return error(429, 'rate_limited');
		}
		if (effect === 'lostBefore') return undefined;
		if (effect === 'unavailable') return error(503, 'unavailable');
		if (effect === 'noBalance') return error(402, 'insufficient_credits');
		const answer = first
			? ((sent.replayed = true), first.answer)
			: this.charge(account, sent, priced);
		if (!first && answer.status < 300 && sent.key) account.keys.set(sent.key, { body, answer });
		return effect === 'lostAfter' || effect === 'timeout' ? undefined : answer;
	}

	/**
	 * Debits the account as the contract says (more, for an overcharging API; a left-out id too, for
	 * `omittedCharged`); the answer reports it, counting only the entries it gives.
	 */
	private charge(account: Account, sent: Sent, priced: Priced): Answer {
		if (priced.answer.status >= 300) return priced.answer;
		const answer = structuredClone(priced.answer) as {
			status: number;
			body: Record<string, unknown>;
		};
		let { cost } = priced;
		let reported = cost;
		let charged = priced.charged;
		if (sent.effect.startsWith('omitted') && Array.isArray(answer.body.contacts)) {
			const left = (answer.body.contacts as Array<{ id: string }>).slice(0, -1);
			answer.body.contacts = left;
			sent.leftOut = true;
			const given = charged.filter((id) => left.some((entry) => entry.id === id));
			reported = given.reduce((sum, id) => sum + account.priceOf(id, priced.level), 0);
			if (sent.effect !== 'omittedCharged') [charged, cost] = [given, reported];
		}
		if (sent.effect === 'overcharge') cost = reported = priced.worstCase + OVERCHARGE;
		account.hold(charged, priced.level);
		account.balance -= cost;
		Object.assign(sent, { debited: cost, charged, free: cost === 0 });
		answer.body.credits_charged = reportedCharge(sent.effect, reported, priced.worstCase);
		answer.body.credits_remaining = account.balance;
		return answer;
	}

	private deliver(res: ServerResponse, sent: Sent, answer: Answer): void {
		const replayHeader =
			(sent.replayed && sent.effect !== 'replayWithout') ||
			(!sent.replayed && sent.effect === 'replayForged');
		const headers: Record<string, string> = { ...RATE_HEADERS };
		if (replayHeader && answer.status < 300) headers['idempotent-replayed'] = 'true';
		if (answer.status === 429) headers['retry-after'] = String(RETRY_AFTER_S);
		sent.status = answer.status;
		const readable = !['notJson', 'badSchema'].includes(sent.effect);
		sent.delivered = answer.status < 300 && readable;
		if (sent.delivered) sent.answered = answeredIn(answer, sent.ids);
		const refuseNext = this.faults[this.next] === 'refused';
		if (refuseNext) headers.connection = 'close';
		if (answer.status < 300 && sent.effect === 'notJson')
			text(res, answer.status, '<html><body>Service temporarily degraded</body></html>', headers);
		else if (answer.status < 300 && sent.effect === 'badSchema')
			json(res, answer.status, unreadableShapeOf(answer), headers);
		else json(res, answer.status, answer.body, headers);
		if (refuseNext) this.refuseFromNow();
	}
}

/** Moves the node's clock (the transport's seam) just past the next midnight (UTC); by how much. */
function passMidnight(): number {
	const day = 86_400_000;
	const toMidnight = day - (now() % day) + 1;
	const waits = timeScale.waits;
	timeScale.waits = 0; // a wait that takes no real time moves the clock on by all of it
	realSliceOf(toMidnight, 1);
	timeScale.waits = waits;
	return toMidnight;
}

/** An answer whose shape the contract rules out: its records where the schema wants something else. */
function unreadableShapeOf(answer: Answer): unknown {
	const body = answer.body as Record<string, unknown>;
	return 'contacts' in body
		? { ...body, contacts: { items: body.contacts } }
		: { ...body, contact: 'see contacts' };
}

function text(res: ServerResponse, status: number, body: string, headers: Record<string, string>) {
	res.writeHead(status, { ...headers, 'content-type': 'text/html' });
	res.end(body);
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
