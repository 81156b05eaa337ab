/**
 * The charging endpoints of the Contact Data API as docs/contract.md states them, on loopback: one
 * account per API key with its balance and the contacts it holds, a contact already held at a level
 * free again at it, an unknown id a `not_found` entry (an unknown email a 404), and a key's first
 * 2xx answer replayed free with `Idempotent-Replayed: true`. A test may answer a call itself.
 */
import { json, startFakeApi, type FakeApi } from './fakeApi.cjs';

const RANKS: Record<string, number> = { basic: 1, premium: 2 };

export interface Account {
	balance: number;
	/** What the API took from this account, replays not counted. */
	debited: number;
	/** Contact id → rank of the highest level held. */
	held: Map<string, number>;
	/** Idempotency-Key → its first 2xx answer. */
	answers: Map<string, Answer>;
}

export interface Answer {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

export interface ApiCall {
	path: string;
	apiKey: string;
	key: string;
	body: { ids?: string[]; email?: string; level?: string };
	account: Account;
	/** `Date.now()` when the call arrived (the test's clock, faked or not). */
	receivedAt: number;
	/** What the call debited, once answered. */
	debited: number;
}

/** How a call is answered: `model()` charges and answers it as the contract says. */
export type Respond = (call: ApiCall, model: () => Answer) => Answer;

export interface ContactApi {
	url: string;
	calls: ApiCall[];
	account(apiKey: string): Account;
	/** What every account was debited. */
	debited(): number;
	close: FakeApi['close'];
}

export async function startContactApi(
	options: { balance?: number; unknown?: string[]; respond?: Respond } = {},
): Promise<ContactApi> {
	const accounts = new Map<string, Account>();
	const account = (apiKey: string) => {
		const known = accounts.get(apiKey);
		if (known) return known;
		const fresh = {
			balance: options.balance ?? 10_000,
			debited: 0,
			held: new Map(),
			answers: new Map(),
		};
		accounts.set(apiKey, fresh);
		return fresh;
	};
	const unknown = new Set(options.unknown ?? []);
	const calls: ApiCall[] = [];
	const respond = options.respond ?? ((_call, model) => model());
	const fake = await startFakeApi((request, res, req) => {
		const apiKey = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
		const key = String(req.headers['idempotency-key'] ?? '');
		const body = request.body as ApiCall['body'];
		const call = { path: request.path, apiKey, key, body, account: account(apiKey) };
		const received: ApiCall = { ...call, receivedAt: Date.now(), debited: 0 };
		calls.push(received);
		const before = received.account.debited;
		const answer = respond(received, () => modelAnswer(received, unknown));
		received.debited = received.account.debited - before;
		json(res, answer.status, answer.body, answer.headers);
	});
	const debited = () => [...accounts.values()].reduce((sum, { debited }) => sum + debited, 0);
	return { url: fake.url, calls, account, debited, close: fake.close };
}

function modelAnswer(call: ApiCall, unknown: Set<string>): Answer {
	const { account, key, body } = call;
	const first = account.answers.get(key);
	if (first) return { ...first, headers: { 'idempotent-replayed': 'true' } };
	const rank = RANKS[body.level ?? 'basic'] ?? 1;
	if (call.path.endsWith('/enrich') && unknown.has(body.email ?? ''))
		return refusal(404, 'not_found', 'No contact matches');
	const ids = call.path.endsWith('/enrich')
		? [`ct_${(body.email ?? '').split('@')[0]}`]
		: (body.ids ?? []);
	const known = ids.filter((id) => !unknown.has(id));
	const price = known.reduce((sum, id) => sum + Math.max(0, rank - (account.held.get(id) ?? 0)), 0);
	if (price > account.balance) return refusal(402, 'insufficient_credits', 'Not enough credits');
	account.balance -= price;
	account.debited += price;
	for (const id of known) account.held.set(id, Math.max(rank, account.held.get(id) ?? 0));
	const level = body.level ?? 'basic';
	const entries = ids.map((id) =>
		unknown.has(id)
			? { id, error: { code: 'not_found', message: 'Contact not found' } }
			: contactRecord(id, level),
	);
	const charge = { credits_charged: price, credits_remaining: account.balance };
	const answer = {
		status: 200,
		body: call.path.endsWith('/enrich')
			? { contact: entries[0], ...charge }
			: { contacts: entries, ...charge },
	};
	account.answers.set(key, answer);
	return answer;
}

export function refusal(status: number, code: string, message: string): Answer {
	return { status, body: { error: { code, message } } };
}

export function contactRecord(id: string, level: string) {
	return {
		id,
		first_name: 'Ada',
		last_name: 'Lovelace',
		title: 'Engineer',
		seniority: 'senior',
		department: 'engineering',
		company: {
			name: 'Acme',
			domain: 'acme.example',
			industry: null,
			size: null,
			funding_stage: null,
			tech_stack: [],
		},
		location: { country: null, region: null, city: null },
		has_email: true,
		has_phone: false,
		unlocked: true,
		level,
		email: `${id}@acme.example`,
		email_status: 'verified',
		linkedin_url: null,
		unlocked_at: new Date().toISOString(),
	};
}
