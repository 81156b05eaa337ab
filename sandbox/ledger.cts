/**
 * The credits ledger of one account: balance, contacts held and at which level, usage, refunds.
 * Unlocking costs 1 credit (basic) or 2 (premium); holding a contact at the same or a higher
 * level makes it free again; basic to premium costs the difference.
 */
import { randomBytes } from 'node:crypto';
import {
	CREDIT_COST,
	ID_PREFIXES,
	LIMITS,
	type RefundReason,
	type Tier,
	type UnlockLevel,
} from '../nodes/ContactData/shared/client/contract';
import type { Holding } from './records.cjs';

export interface UsageEntry {
	at: string;
	operation: 'unlock' | 'enrich';
	contact_id: string;
	credits: number;
}

export interface RefundRecord {
	id: string;
	contact_id: string;
	reason: RefundReason;
	status: 'approved' | 'pending' | 'rejected';
	credits_refunded: number;
	created_at: string;
}

export type RefundOutcome =
	| { kind: 'created'; refund: RefundRecord }
	| { kind: 'not_unlocked' }
	| { kind: 'duplicate' };

function newestFirst<T>(entries: T[]): T[] {
	return entries.slice(-LIMITS.balanceHistory).reverse();
}

export class CreditLedger {
	balance: number;
	/** Credits charged since the last reset (stats). */
	charged = 0;
	private readonly holdings = new Map<number, Holding>();
	private readonly paid = new Map<number, number>();
	private readonly refunded = new Map<number, number>();
	private readonly usage: UsageEntry[] = [];
	private readonly refunds: RefundRecord[] = [];
	private readonly claims = new Set<string>();
	private approvedClaims = 0;

	constructor(
		readonly tier: Tier,
		balance: number,
	) {
		this.balance = balance;
	}

	holding(index: number): Holding | undefined {
		return this.holdings.get(index);
	}

	/** Contacts the account holds. */
	heldIndexes(): Iterable<number> {
		return this.holdings.keys();
	}

	/** Credits needed to hold a contact at a level, given what the account holds already. */
	costOf(index: number, level: UnlockLevel): number {
		const held = this.holdings.get(index);
		const heldCost = held ? CREDIT_COST[held.level] : 0;
		return Math.max(0, CREDIT_COST[level] - heldCost);
	}

	/**
	 * Unlocks contacts (the caller has checked the balance covers them) and returns the credits
	 * charged. A contact held at a higher level stays at that level.
	 */
	unlock(
		contacts: Array<{ index: number; id: string }>,
		level: UnlockLevel,
		operation: UsageEntry['operation'],
		at: string,
	): number {
		let total = 0;
		for (const { index, id } of contacts) {
			const cost = this.costOf(index, level);
			const held = this.holdings.get(index);
			if (!held) this.holdings.set(index, { level, at });
			else if (cost > 0) this.holdings.set(index, { level, at: held.at });
			if (cost > 0) {
				total += cost;
				this.paid.set(index, (this.paid.get(index) ?? 0) + cost);
				this.usage.push({ at, operation, contact_id: id, credits: cost });
				if (this.usage.length > LIMITS.balanceHistory * 4)
					this.usage.splice(0, this.usage.length - LIMITS.balanceHistory);
			}
		}
		this.balance -= total;
		this.charged += total;
		return total;
	}

	/** Files a refund claim: the first 100 accepted claims return what was paid for the contact. */
	refund(index: number, contactId: string, reason: RefundReason, at: string): RefundOutcome {
		if (!this.holdings.has(index)) return { kind: 'not_unlocked' };
		const claimKey = `${index}:${reason}`;
		if (this.claims.has(claimKey)) return { kind: 'duplicate' };
		this.claims.add(claimKey);
		const approved = this.approvedClaims < LIMITS.autoApprovedRefunds;
		let credits = 0;
		if (approved) {
			this.approvedClaims++;
			// What was paid and not yet refunded: a second claim for the contact returns nothing more.
			credits = Math.max(0, (this.paid.get(index) ?? 0) - (this.refunded.get(index) ?? 0));
			this.refunded.set(index, (this.refunded.get(index) ?? 0) + credits);
			this.balance += credits;
		}
		const refund: RefundRecord = {
			id: ID_PREFIXES.refund + randomBytes(8).toString('hex'),
			contact_id: contactId,
			reason,
			status: approved ? 'approved' : 'pending',
			credits_refunded: credits,
			created_at: at,
		};
		this.refunds.push(refund);
		return { kind: 'created', refund };
	}

	/** The balance answer's history: the latest entries, newest first. */
	history(): { usage: UsageEntry[]; refunds: RefundRecord[] } {
		return { usage: newestFirst(this.usage), refunds: newestFirst(this.refunds) };
	}
}
