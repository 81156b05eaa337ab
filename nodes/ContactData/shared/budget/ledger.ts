/**
 * The credit rules of Unlock and Enrich, free of n8n. Every cap is a hard ceiling: a call is sent
 * once its worst case is reserved in every tally, and the charge reported replaces it, once per
 * Idempotency-Key: a key the account settled before counts nothing more, its charge belongs to the
 * run that settled it first. A contact the account holds at a level costs nothing more at that
 * level or below (the contract). A lost answer's worst case stays held under its key. A charge the
 * contract rules out keeps the worst case; one above it ends the charging calls, so a misbehaving
 * API passes a cap by one call at most.
 */
import { forget, remember, type Account, type SentCall, type SettledCall } from './account';

export interface ChargeReport {
	credits_charged?: unknown;
	credits_remaining?: unknown;
}

/** What a cap counts, as plain JSON: a run's tally lives in n8n's flow context. */
export interface Tally {
	charged: number;
	reserved: number;
	/** The worst case this tally still holds for each lost call, by key (part of `reserved`). */
	lostWorstCases?: Record<string, number>;
	/** A run's: a charge above its call's worst case, as reported; no charging call follows. */
	overcharge?: number;
	/** A day's: its UTC day. */
	day?: string;
}

export const newTally = (): Tally => ({ charged: 0, reserved: 0 });

export interface Cap {
	/** As the editor shows it: "Max Credits", "Max Credits per Day". */
	label: string;
	max: number;
	tally: Tally;
	/** The tool answer's field of what is left of a cap over time. */
	leftField?: 'left_today' | 'left_in_session';
}

/** One call's worst case, held in each tally: released from that one, never a later day's. */
export interface Reservation {
	key: string;
	credits: number;
	open: boolean;
	/** Its key was sent before: a refusal now says nothing of that earlier send. */
	sentBefore: boolean;
	/** When this try first sent it, in its budget's sequence (0: its key was sent before). */
	sentAt: number;
	/** `takenOver`: the tally held the key's lost worst case before (the same run, or day). */
	shares: { tally: Tally; credits: number; takenOver: boolean }[];
}

export const leftOf = ({ max, tally }: Cap): number =>
	Math.max(0, max - tally.charged - tally.reserved);

const isCharge = (charge: unknown): charge is number =>
	typeof charge === 'number' && Number.isInteger(charge) && charge >= 0;

export class CreditBudget {
	creditsRemaining: number | null = null;
	replayedHere = 0;
	/** Calls first sent and fresh answers read by this try, in order; `creditsRemaining`'s place. */
	private sequence = 0;
	private balanceAt = -1;
	/** Charges the contract rules out, as reported. */
	readonly impossibleCharges: string[] = [];

	constructor(
		readonly maxCredits: number,
		/** What this run charged and holds back, across its tries. */
		readonly run: Tally,
		readonly account: Account,
		/** Max Credits first, then the caps over time of the moment (a day's cap: today's). */
		private readonly capsNow: () => Cap[],
		/** Max Credits is shared by the tool calls of an execution. */
		readonly shared = false,
	) {}

	/** Kept in the run's tally: no later try of the run (Retry On Fail) sends a call either. */
	get overcharge(): number | undefined {
		return this.run.overcharge;
	}

	get caps(): Cap[] {
		return this.capsNow();
	}

	get headroom(): number {
		return this.overcharge === undefined ? Math.min(...this.caps.map(leftOf)) : 0;
	}

	/** The cap that leaves the least (Max Credits on a tie). */
	get tightest(): Cap {
		return this.caps.reduce((tightest, cap) => (leftOf(cap) < leftOf(tightest) ? cap : tightest));
	}

	/** The settled call that holds a unit at this rank or above: sent again under its key, free. */
	heldCallOf(unit: string, rank: number): SettledCall | undefined {
		const [held = 0, key = ''] = this.account.held[unit] ?? [];
		return held >= rank ? this.account.settled[key] : undefined;
	}

	priceOf(unit: string, rank: number, cost: number): number {
		return this.heldCallOf(unit, rank) ? 0 : cost;
	}

	/** Held by this call unless a call still remembered holds it at this rank or above. */
	hold(unit: string, rank: number, key: string): void {
		if (rank > 0 && !this.heldCallOf(unit, rank)) remember(this.account, 'held', unit, [rank, key]);
	}

	/**
	 * Holds a call's worst case in every tally, or undefined when it does not fit or a cap was passed.
	 * A tally holding the key's lost worst case takes it over; after the account settled the key the
	 * call is a free replay.
	 */
	reserve(credits: number, key: string): Reservation | undefined {
		if (this.overcharge !== undefined) return undefined;
		const sentBefore = this.sentBefore(key);
		const worstCase = this.account.settled[key] ? 0 : credits;
		const caps = this.caps;
		const shares = this.talliesOf(caps).map((tally) => {
			const lost = tally.lostWorstCases?.[key];
			return { tally, credits: lost ?? worstCase, takenOver: lost !== undefined };
		});
		const shareOf = (tally: Tally) => shares.find((share) => share.tally === tally)!;
		const fits = caps.every(
			(cap) => shareOf(cap.tally).takenOver || shareOf(cap.tally).credits <= leftOf(cap),
		);
		const passed = caps.some(({ max, tally }) => tally.charged + tally.reserved > max);
		// A known key is never refused for a cap already passed; its worst case must still fit
		// where no tally holds it (a new day, a loop's next run).
		if (!fits || (passed && !sentBefore)) return undefined;
		for (const { tally, credits, takenOver } of shares)
			if (takenOver) delete tally.lostWorstCases![key];
			else tally.reserved += credits;
		const sentAt = sentBefore ? 0 : ++this.sequence;
		return { key, credits: worstCase, open: true, sentBefore, sentAt, shares };
	}

	/** Held for good, whatever the caps leave: ids an answer left out may have been charged. */
	holdBack(credits: number): void {
		for (const tally of this.talliesOf(this.caps)) tally.reserved += credits;
	}

	/** The tallies a call counts in: this run's and each cap's, once each (often the same). */
	private talliesOf(caps: Cap[]): Tally[] {
		return [...new Set([this.run, ...caps.map(({ tally }) => tally)])];
	}

	/**
	 * The charge a call's answer reports, counted once per key in every tally that reserved it.
	 * Undefined for a charge the contract rules out: its worst case stays reserved.
	 */
	settle(reservation: Reservation, call: SentCall, report: ChargeReport, replayed: boolean) {
		const { credits_charged: charge, credits_remaining: remaining } = report;
		const lostByAnother = this.lostByAnotherRun(reservation, call.key);
		const lostOn = replayed ? this.account.lost[call.key]?.day : undefined;
		forget(this.account, 'lost', call.key);
		const first = this.account.settled[call.key];
		if (first || replayed) this.replayedHere++;
		this.takeBalance(remaining, first || replayed ? reservation.sentAt : ++this.sequence);
		if (first) {
			if (first.charge !== null && charge !== first.charge) this.impossible(charge);
			this.release(reservation);
			return 0;
		}
		const readable = isCharge(charge) && charge <= reservation.credits;
		remember(this.account, 'settled', call.key, { ...call, charge: readable ? charge : null });
		if (!readable) {
			// An overcharge says nothing of what an answer before left out; an unreadable charge keeps
			// this call's worst case held, which covers it.
			if (isCharge(charge)) this.holdBack(call.covers ?? 0);
			return this.unreadable(reservation, charge);
		}
		this.release(reservation);
		// A call another run lost may have been charged then: where that run's words did not reach
		// (this run, a new day), the charge is held back, not told as this run's.
		for (const { tally, takenOver } of reservation.shares)
			if (lostOn && tally.day && lostOn < tally.day)
				continue; // carried out on the day it was sent
			else if (lostByAnother && !takenOver) tally.reserved += charge;
			else tally.charged += charge;
		// A fresh answer after midnight may be a retry's, sent today: today holds its charge back too.
		const today = replayed ? undefined : this.laterDayOf(reservation);
		if (today) today.reserved += charge;
		this.holdBack(Math.max(0, (call.covers ?? 0) - charge));
		return charge;
	}

	/**
	 * The balance after the latest call the API carried out: a fresh answer's is now's, a replayed
	 * one's is as of its call's first send, older than the answers read since.
	 */
	private takeBalance(remaining: unknown, at: number): void {
		if (typeof remaining !== 'number' || at < this.balanceAt) return;
		this.creditsRemaining = remaining;
		this.balanceAt = at;
	}

	/** Today's tally, where a call reserved on an earlier day holds no share. */
	private laterDayOf({ shares }: Reservation): Tally | undefined {
		const today = this.caps.find((cap) => cap.tally.day)?.tally;
		return today && !shares.some(({ tally }) => tally === today) ? today : undefined;
	}

	private lostByAnotherRun(reservation: Reservation, key: string): boolean {
		const ofThisRun = reservation.shares.find(({ tally }) => tally === this.run);
		return this.account.lost[key] !== undefined && !ofThisRun?.takenOver;
	}

	/** The account knows the key, or the run still holds its worst case (a lost call forgotten). */
	sentBefore(key: string): boolean {
		const { account, run } = this;
		return (account.lost[key] ?? account.settled[key] ?? run.lostWorstCases?.[key]) !== undefined;
	}

	/** A call whose answer stayed lost: its worst case stays held under its key, for the same call. */
	keepLost(reservation: Reservation, call: SentCall): void {
		if (!reservation.open) return;
		reservation.open = false;
		for (const { tally, credits } of reservation.shares)
			if (credits > 0) (tally.lostWorstCases ??= {})[call.key] = credits;
		const { credits, shares } = reservation;
		const day = shares.find(({ tally }) => tally.day)?.tally.day;
		remember(this.account, 'lost', call.key, { ...call, credits, ...(day && { day }) });
	}

	/** Frees a reservation: the call was refused (nothing charged), or its charge is counted. */
	release(reservation: Reservation): void {
		if (!reservation.open) return;
		reservation.open = false;
		for (const { tally, credits } of reservation.shares) tally.reserved -= credits;
	}

	/**
	 * A charge the contract rules out: the call's worst case stays held. One above it may be an API
	 * that charges more than it may: that charge is held back as reported, and no call follows.
	 */
	private unreadable(reservation: Reservation, charge: unknown): undefined {
		if (!isCharge(charge)) {
			this.impossible(charge);
			reservation.open = false;
			return undefined;
		}
		this.run.overcharge = charge;
		this.release(reservation);
		for (const { tally } of reservation.shares) tally.reserved += charge;
		return undefined;
	}

	private impossible(charge: unknown): void {
		this.impossibleCharges.push(JSON.stringify(charge) ?? String(charge));
	}
}

/**
 * Tallies of caps over time in this process. Past the limit the least recently used session is
 * dropped (it starts afresh; the daily cap still holds), a day only once it is over. A key's kind is
 * its first word, so no session id (the MCP client's) can pass for a day.
 */
const MAX_TALLIES = 10_000;
const tallies = new Map<string, Tally>();
/** The latest day each store counted: a clock set back never reopens a day already dropped. */
const latestDays = new WeakMap<Map<string, Tally>, string>();

export function tallyOf(
	node: string,
	over: { now: number } | { session: string },
	store = tallies,
) {
	let day = 'now' in over ? new Date(over.now).toISOString().slice(0, 10) : undefined;
	const latest = latestDays.get(store);
	if (day && latest && latest > day) day = latest;
	const key = 'session' in over ? `session|${node}|${over.session}` : `day|${day}|${node}`;
	const tally = store.get(key) ?? { charged: 0, reserved: 0, ...(day && { day }) };
	store.delete(key); // used last, so dropped last
	store.set(key, tally);
	if (day) latestDays.set(store, day);
	if (day)
		for (const old of store.keys())
			if (old.startsWith('day|') && old < `day|${day}`) store.delete(old);
	const oldestSession =
		store.size > MAX_TALLIES && [...store.keys()].find((old) => old.startsWith('session|'));
	if (oldestSession) store.delete(oldestSession);
	return tally;
}
