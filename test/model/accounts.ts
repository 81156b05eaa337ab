/**
 * The Contact Data API's charging as docs/contract.md states it, one account per API key: contacts
 * held at their level or above are free, basic to premium costs the difference, a replayed
 * Idempotency-Key (same body) returns its first 2xx answer and charges nothing, an unknown id gets
 * a `not_found` entry, and Enrich without a match is a 404.
 */
export const LEVELS = ['basic', 'premium'] as const;
export type Level = (typeof LEVELS)[number];
const COST: Record<Level, number> = { basic: 1, premium: 2 };
export const costOf = (level: Level) => COST[level];

/**
 * Contacts ct_0 … ct_(KNOWN - 1) exist, and the BULK from ct_100 on (for runs of more than one
 * call); a person p<n>@people.example is contact n.
 */
export const KNOWN = 8;
export const BULK = { from: 100, count: 110 };
export const contactId = (n: number) => `ct_${n}`;
export const personEmail = (n: number) => `p${n}@people.example`;

export interface Answer {
	status: number;
	body: unknown;
}

export interface Priced {
	/** The answer as the contract gives it, with the charge the contract says. */
	answer: Answer;
	/** What the call costs by the contract, and its worst case (every id new at the level). */
	cost: number;
	worstCase: number;
	/** The contacts charged for, and the level they are held at after the call. */
	charged: string[];
	level: Level;
}

export class Account {
	/** Contact id → level held (by rank). */
	readonly held = new Map<string, number>();
	/** Idempotency-Key → the body it was first sent with and its first 2xx answer. */
	readonly keys = new Map<string, { body: string; answer: Answer }>();
	balance = 1_000_000;

	rankOf(id: string): number {
		return this.held.get(id) ?? 0;
	}

	/** The price of contact `id` at `level`: 0 when held at that level or above. */
	priceOf(id: string, level: Level): number {
		const rank = LEVELS.indexOf(level) + 1;
		const held = this.rankOf(id);
		return held >= rank ? 0 : costOf(level) - (held ? costOf(LEVELS[held - 1]) : 0);
	}

	/** Holds `ids` at `level` (never lowers a level held). */
	hold(ids: string[], level: Level): void {
		const rank = LEVELS.indexOf(level) + 1;
		for (const id of ids) this.held.set(id, Math.max(rank, this.rankOf(id)));
	}

	record(id: string, level: Level) {
		const rank = Math.max(LEVELS.indexOf(level) + 1, this.rankOf(id));
		return contactRecord(id, LEVELS[rank - 1]);
	}
}

export function isKnown(id: string): boolean {
	const match = /^ct_(\d+)$/.exec(id);
	const n = Number(match?.[1] ?? NaN);
	return n < KNOWN || (n >= BULK.from && n < BULK.from + BULK.count);
}

/** An unlocked record as the contract shapes it. */
export function contactRecord(id: string, level: Level) {
	const n = id.slice(3);
	return {
		id,
		first_name: 'Ada',
		last_name: `Person${n}`,
		title: 'VP Engineering',
		seniority: 'vp',
		department: 'engineering',
		company: {
			name: 'Acme',
			domain: 'acme.example',
			industry: 'software',
			size: 100,
			funding_stage: 'seed',
			tech_stack: [],
		},
		location: { country: 'US', region: 'CA', city: 'San Francisco' },
		has_email: true,
		has_phone: true,
		unlocked: true,
		level,
		email: `p${n}@people.example`,
		email_status: 'verified',
		linkedin_url: `https://www.linkedin.com/in/person${n}`,
		unlocked_at: '2026-11-28T00:00:00Z',
		...(level === 'premium' ? { phone: '+1 555 0100', mobile_phone: null, work_history: [] } : {}),
	};
}

const notFound = (message: string) => ({ error: { code: 'not_found', message } });

/** POST /v1/unlock priced against `account` (not yet charged). */
export function priceUnlock(account: Account, ids: string[], level: Level): Priced {
	const known = ids.filter(isKnown);
	const cost = known.reduce((sum, id) => sum + account.priceOf(id, level), 0);
	const contacts = ids.map((id) =>
		isKnown(id) ? account.record(id, level) : { id, ...notFound(`No contact ${id}`) },
	);
	const charged = known.filter((id) => account.priceOf(id, level) > 0);
	const body = { contacts, credits_charged: cost, credits_remaining: account.balance - cost };
	return {
		answer: { status: 200, body },
		cost,
		worstCase: ids.length * costOf(level),
		charged,
		level,
	};
}

/** POST /v1/enrich priced against `account`: the contact the email names, or a 404. */
export function priceEnrich(account: Account, email: string, level: Level): Priced {
	const match = /^p(\d+)@people\.example$/.exec(email);
	const id = match ? contactId(Number(match[1])) : '';
	const worstCase = costOf(level);
	if (!isKnown(id))
		return {
			answer: { status: 404, body: notFound('Nobody matches') },
			cost: 0,
			worstCase,
			charged: [],
			level,
		};
	const cost = account.priceOf(id, level);
	const body = {
		contact: account.record(id, level),
		credits_charged: cost,
		credits_remaining: account.balance - cost,
	};
	return { answer: { status: 200, body }, cost, worstCase, charged: cost ? [id] : [], level };
}
