/**
 * The credit rules of Unlock and Enrich, with no n8n context (tested with plain values and a fake
 * clock). Max Credits, and any cap over time, are hard ceilings:
 * - Reserve: before a call, its worst case is held against every cap; it is sent only if it fits.
 * - Settle: the answer's `credits_charged` replaces the worst case when it is possible (a whole
 *   number from 0 to the worst case); an impossible one keeps the worst case held.
 * - Replay: every tally remembers the Idempotency-Keys it counted, so a key it settled counts
 *   nothing more there (a Retry On Fail, a repeated tool call, a later run today), and a call whose
 *   answer stayed lost keeps its worst case, held by key, for the same call sent again later.
 * - What Fits sends what the caps leave room for; Stop Before Spending refuses a run that may not fit.
 */

export type WhenMaxCreditsReached = 'stop' | 'whatFits';

/** What the API reports for a charging call (checked when settled). */
export interface ChargeReport {
	credits_charged?: unknown;
	credits_remaining?: unknown;
}

/**
 * Credits counted against a cap: charged as the API reported, and reserved for calls not settled.
 * A tally also remembers the Idempotency-Keys it counted, so a replay (a Retry On Fail, another
 * tool call, a later run) counts nothing more there; at most MAX_KEYS of each, the oldest forgotten.
 */
export interface Tally {
	charged: number;
	reserved: number;
	/** Worst cases of calls whose answer stayed lost, by Idempotency-Key (part of `reserved`). */
	held?: Record<string, number>;
	/** What each settled Idempotency-Key was charged. */
	settled?: Record<string, number>;
}

/** A run's ledger (an execution's, for tool calls): the tally of Max Credits, and its id calls. */
export interface CreditLedger extends Tally {
	/** The sizes of the id calls sent, by their first id: where a replay may start. */
	callSizes?: Record<string, number[]>;
}

export interface Cap {
	/** As the editor shows it: "Max Credits", "Max Credits per Day". */
	label: string;
	max: number;
	tally: Tally;
	/** The tool answer's field of what is left of a cap over time. */
	leftField?: 'left_today' | 'left_in_session';
}

/** What a reservation holds in one tally (0 where the tally counted its key before). */
interface Share {
	tally: Tally;
	credits: number;
}

/** The worst case held for one call until its answer settles it. */
export interface Reservation {
	/** What it holds against Max Credits. */
	credits: number;
	open: boolean;
	key?: string;
	/** Whether its key was sent before: a refusal now says nothing of that earlier send. */
	sentBefore: boolean;
	/** What it holds in each tally: released from those, never from a later day's. */
	shares: Share[];
}

/**
 * Keys a tally remembers, each kind. Past that the oldest 1,000 are forgotten at once. Forgetting
 * only counts more: a settled key forgotten counts its replay again, and a held one keeps its worst
 * case reserved until its tally is dropped.
 */
const MAX_KEYS = 10_000;
const FORGET_AT_ONCE = 1_000;
/** How many keys each record has (a record read back from n8n's flow context is counted once). */
const sizes = new WeakMap<Record<string, number>, number>();
const sizeOf = (record: Record<string, number>) => sizes.get(record) ?? Object.keys(record).length;

function remember(record: Record<string, number>, key: string, credits: number): void {
	const size = sizeOf(record) + (record[key] === undefined ? 1 : 0);
	record[key] = credits;
	sizes.set(record, size);
	if (size <= MAX_KEYS) return;
	for (const oldest of Object.keys(record).slice(0, FORGET_AT_ONCE)) delete record[oldest];
	sizes.set(record, size - FORGET_AT_ONCE);
}

function forget(record: Record<string, number> | undefined, key: string): void {
	if (record?.[key] === undefined) return;
	sizes.set(record, sizeOf(record) - 1);
	delete record[key];
}

/** What a call holds in a tally: 0 for a key it settled, a lost call's worst case to take over, else new. */
function shareOf(tally: Tally, credits: number, key: string | undefined, free: boolean) {
	const known = key !== undefined && tally.settled?.[key] !== undefined;
	if (free || known) return { tally, credits: 0, fresh: false };
	const held = key === undefined ? undefined : tally.held?.[key];
	return { tally, credits: held ?? credits, fresh: held === undefined };
}

export const leftOf = ({ max, tally }: Cap): number =>
	Math.max(0, max - tally.charged - tally.reserved);

/** What Fits: the ids of the next call, at most `limit`, as many as the caps leave room for. */
export const callSize = (limit: number, queued: number, headroom: number, cost: number): number =>
	Math.min(limit, queued, Math.floor(headroom / cost));

/** Stop Before Spending: whether a run whose worst case is `worstCase` must send nothing. */
export const mustStop = (
	policy: WhenMaxCreditsReached,
	worstCase: number,
	headroom: number,
): boolean => policy === 'stop' && worstCase > headroom;

/** A charge the contract allows for a call of this worst case. */
export const isPossibleCharge = (charge: unknown, worstCase: number): charge is number =>
	typeof charge === 'number' && Number.isInteger(charge) && charge >= 0 && charge <= worstCase;

/** Counts a settled charge in a tally, once per key. */
function count(tally: Tally, charge: number, key?: string): void {
	if (key !== undefined && tally.settled?.[key] !== undefined) return;
	tally.charged += charge;
	if (key !== undefined) remember((tally.settled ??= {}), key, charge);
}

export class CreditBudget {
	/** What this node run charged, held reserved at its end, and had answered as replays. */
	chargedHere = 0;
	reservedHere = 0;
	replayedHere = 0;
	/** The balance the API reported after this run's last settled call (null before any). */
	creditsRemaining: number | null = null;
	/** Charges the contract rules out, as reported (their worst case stays reserved). */
	readonly impossibleCharges: string[] = [];
	/** Max Credits first, then the caps over time: every reservation and charge counts against each. */
	readonly caps: Cap[];

	constructor(
		readonly maxCredits: number,
		private readonly ledger: CreditLedger = { charged: 0, reserved: 0 },
		/** Whether the ledger is shared by the tool calls of an execution. */
		readonly shared = false,
		capsOverTime: Cap[] = [],
	) {
		this.caps = [{ label: 'Max Credits', max: maxCredits, tally: ledger }, ...capsOverTime];
	}

	get charged(): number {
		return this.ledger.charged;
	}

	get headroom(): number {
		return Math.min(...this.caps.map(leftOf));
	}

	/** The cap that leaves the least (Max Credits when several leave as little). */
	get tightest(): Cap {
		return this.caps.reduce((tightest, cap) => (leftOf(cap) < leftOf(tightest) ? cap : tightest));
	}

	/**
	 * Holds a call's worst case in every tally: a lost call's key takes its held worst case over, and
	 * a key settled before holds nothing (the API answers it again for free). A call sent before is
	 * never refused (its worst case was held when it was first sent). Undefined: it does not fit.
	 */
	reserve(credits: number, key?: string): Reservation | undefined {
		const again = key !== undefined && this.sentBefore(key);
		const free = this.settledBefore(key);
		const shares = this.caps.map((cap) => ({ ...shareOf(cap.tally, credits, key, free), cap }));
		if (!again && shares.some(({ credits, cap }) => credits > leftOf(cap))) return undefined;
		for (const { tally, credits, fresh } of shares)
			if (fresh) tally.reserved += credits;
			else if (key !== undefined) forget(tally.held, key);
		this.reservedHere += shares[0].credits;
		return {
			credits: shares[0].credits,
			open: true,
			key,
			sentBefore: again,
			shares: shares.map(({ tally, credits }) => ({ tally, credits })),
		};
	}

	/** Whether a lost call with this key holds a reservation to take over. */
	holds(key: string): boolean {
		return this.caps.some(({ tally }) => tally.held?.[key] !== undefined);
	}

	/** Whether a call with this key was sent before (this execution, or a run today): the API replays it, free. */
	sentBefore(key: string): boolean {
		return this.holds(key) || this.caps.some(({ tally }) => tally.settled?.[key] !== undefined);
	}

	/** Notes an id call sent (its first id and size), so a replay of it is found by a lookup. */
	noteIdsCall(firstId: string, size: number): void {
		const sizes = ((this.ledger.callSizes ??= {})[firstId] ??= []);
		if (!sizes.includes(size)) sizes.push(size);
	}

	/** The sizes of the id calls sent before that start with this id, largest first. */
	idsCallSizesFrom(firstId: string): number[] {
		return [...(this.ledger.callSizes?.[firstId] ?? [])].sort((a, b) => b - a);
	}

	private settledBefore(key?: string): boolean {
		return key !== undefined && this.ledger.settled?.[key] !== undefined;
	}

	/**
	 * The charge the API reported replaces the worst case; a key a tally counted before counts nothing
	 * more there, whether or not the answer says it is a replay. Returns the charge counted against
	 * Max Credits; undefined for an unreadable one (its worst case stays reserved): a charge the
	 * contract rules out, or one that differs from what a tally remembers for the key.
	 */
	settle(reservation: Reservation, report: ChargeReport, replayed = false): number | undefined {
		const { credits_charged: charge, credits_remaining: remaining } = report;
		if (typeof remaining === 'number') this.creditsRemaining = remaining;
		const { key } = reservation;
		const before = this.settledBefore(key);
		if (!this.readable(charge, reservation, before)) {
			this.impossibleCharges.push(JSON.stringify(charge) ?? String(charge));
			return undefined;
		}
		if (replayed || before) this.replayedHere++;
		this.release(reservation);
		for (const { tally } of this.caps) count(tally, charge as number, key);
		const counted = before ? 0 : (charge as number);
		this.chargedHere += counted;
		return counted;
	}

	/** A replay reports the first answer's charge; a first answer, a charge its worst case allows. */
	private readable(charge: unknown, { key, credits }: Reservation, before: boolean): boolean {
		const remembered = this.caps.map(({ tally }) => key && tally.settled?.[key]);
		if (remembered.some((first) => typeof first === 'number' && first !== charge)) return false;
		return before || isPossibleCharge(charge, credits);
	}

	/** A call whose answer stayed lost: its worst case stays held, by key, for the same call sent again later. */
	holdForReplay(reservation: Reservation): void {
		if (!reservation.open || reservation.key === undefined) return;
		for (const { tally, credits } of reservation.shares)
			if (credits > 0) remember((tally.held ??= {}), reservation.key, credits);
	}

	/** Frees a reservation: the API refused the call (nothing charged), or its charge is counted. */
	release(reservation: Reservation): void {
		if (!reservation.open) return;
		reservation.open = false;
		for (const { tally, credits } of reservation.shares) tally.reserved -= credits;
		this.reservedHere -= reservation.credits;
	}
}
