/**
 * The sandbox's fixed API keys and the per-key account state: each key has its own ledger,
 * saved lists, webhooks, idempotency records, rate windows and request counts.
 */
import type { Tier } from '../nodes/ContactData/shared/client/contract';
import { IdempotencyStore } from './idempotency.cjs';
import { CreditLedger } from './ledger.cjs';
import { ListStore } from './lists.cjs';
import { RateLimiter } from './rateLimit.cjs';
import { WebhookStore } from './webhooks.cjs';

export const KEYS = {
	/** Growth tier, 1,000,000 credits. */
	growth: 'sk_sandbox_growth',
	/** Growth tier, no credits. */
	empty: 'sk_sandbox_empty',
	/** Starter tier: every endpoint answers 403 tier_required. */
	starter: 'sk_sandbox_starter',
	/** Revoked: 401 unauthorized. */
	revoked: 'sk_sandbox_revoked',
} as const;

interface Plan {
	key: string;
	tier: Tier;
	balance: number;
}

const PLANS: Plan[] = [
	{ key: KEYS.growth, tier: 'growth', balance: 1_000_000 },
	{ key: KEYS.empty, tier: 'growth', balance: 0 },
	{ key: KEYS.starter, tier: 'starter', balance: 0 },
];

export const REVOKED_KEYS: ReadonlySet<string> = new Set([KEYS.revoked]);

export class Account {
	readonly ledger: CreditLedger;
	readonly lists = new ListStore();
	readonly webhooks = new WebhookStore();
	readonly idempotency = new IdempotencyStore();
	readonly rate = new RateLimiter();
	readonly requests: Record<string, number> = {};
	/** When each route was first and last called (ms since epoch): the span of a bench's calls. */
	readonly requestSpans: Record<string, { first: number; last: number }> = {};
	http429 = 0;
	/** Charging calls answered from an earlier call with the same Idempotency-Key and body. */
	idempotentReplays = 0;

	constructor(
		readonly key: string,
		readonly tier: Tier,
		readonly initialBalance: number,
	) {
		this.ledger = new CreditLedger(tier, initialBalance);
	}
}

/** Counts a call of a route (`METHOD /template`) for the stats. */
export function countRequest(account: Account, route: string, now = Date.now()): void {
	account.requests[route] = (account.requests[route] ?? 0) + 1;
	const span = account.requestSpans[route];
	if (span) span.last = now;
	else account.requestSpans[route] = { first: now, last: now };
}

export function createAccounts(): Map<string, Account> {
	return new Map(PLANS.map((plan) => [plan.key, new Account(plan.key, plan.tier, plan.balance)]));
}
