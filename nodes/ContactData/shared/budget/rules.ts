/**
 * The credit rules of Unlock and Enrich, with no n8n context (tested with plain values and a fake
 * clock). Max Credits, and any cap over time, are hard ceilings:
 * - Reserve: before a call, its worst case is held against every cap; it is sent only if it fits.
 * - Settle: the answer's `credits_charged` replaces the worst case when it is possible (a whole
 *   number from 0 to the worst case); an impossible one keeps the worst case held.
 * - Replay: a key already settled counts nothing more; a call whose answer stayed lost keeps its
 *   worst case, held by key, for the same call sent again later (free for the API).
 * - What Fits sends what the caps leave room for; Stop Before Spending refuses a run that may not fit.
 */

export type WhenMaxCreditsReached = 'stop' | 'whatFits';

/** What the API reports for a charging call (checked when settled). */
export interface ChargeReport {
	credits_charged?: unknown;
	credits_remaining?: unknown;
}

/** Credits counted against a cap: charged as the API reported, and reserved for calls not settled. */
export interface Tally {
	charged: number;
	reserved: number;
}

/** A run's ledger (an execution's, for tool calls): also what each key was charged, and lost calls. */
export interface CreditLedger extends Tally {
	/** Worst cases of calls whose answer stayed lost, by Idempotency-Key (part of `reserved`). */
	held?: Record<string, number>;
	/** What each settled Idempotency-Key was charged. */
	settled?: Record<string, number>;
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

/** The worst case held for one call until its answer settles it. */
export interface Reservation {
	credits: number;
	open: boolean;
	key?: string;
	/** The tallies it was reserved in: released from those, never from a later day's. */
	tallies: Tally[];
}

/** The tallies each held key was reserved in (a ledger may outlive its first day). */
const heldTallies = new WeakMap<CreditLedger, Map<string, Tally[]>>();
const heldTalliesOf = (ledger: CreditLedger): Map<string, Tally[]> => {
	let held = heldTallies.get(ledger);
	if (!held) heldTallies.set(ledger, (held = new Map()));
	return held;
};

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

/**
 * Tallies of caps over time in this process. Past the limit only the least recently used session
 * tally is dropped (its session then starts afresh; the daily cap still holds), and a day's tally
 * only once that day is over: no eviction raises what the daily cap allows.
 */
const MAX_TALLIES = 10_000;
const tallies = new Map<string, Tally>();
const DAY_MARK = '|day|';

/** The tally of a cap over time: per node and UTC day of `now`, or per node and MCP session. */
export function tallyOf(
	node: string,
	over: { now: number } | { session: string },
	store = tallies,
): Tally {
	const day = 'now' in over ? new Date(over.now).toISOString().slice(0, 10) : undefined;
	const key = 'session' in over ? `${node}|session|${over.session}` : `${node}${DAY_MARK}${day}`;
	const tally = store.get(key) ?? { charged: 0, reserved: 0 };
	// Used last, so dropped last.
	store.delete(key);
	store.set(key, tally);
	if (day) dropPastDays(store, day);
	if (store.size > MAX_TALLIES) dropOldestSession(store);
	return tally;
}

function dropPastDays(store: Map<string, Tally>, today: string): void {
	for (const key of store.keys()) {
		const at = key.indexOf(DAY_MARK);
		if (at >= 0 && key.slice(at + DAY_MARK.length) < today) store.delete(key);
	}
}

function dropOldestSession(store: Map<string, Tally>): void {
	for (const key of store.keys())
		if (!key.includes(DAY_MARK)) {
			store.delete(key);
			return;
		}
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
	 * Holds a call's worst case; a lost call's key takes its held reservation over, and a key settled
	 * before holds nothing (the API answers it again for free). Undefined: it does not fit.
	 */
	reserve(credits: number, key?: string): Reservation | undefined {
		const held = key === undefined ? undefined : this.ledger.held?.[key];
		if (held !== undefined) return this.takeOver(key as string, held);
		const worstCase = this.settledBefore(key) ? 0 : credits;
		if (worstCase > this.headroom) return undefined;
		const tallies = this.caps.map(({ tally }) => tally);
		for (const tally of tallies) tally.reserved += worstCase;
		this.reservedHere += worstCase;
		return { credits: worstCase, open: true, key, tallies };
	}

	/** A lost call's key takes over its held reservation, still counted where it was reserved. */
	private takeOver(key: string, credits: number): Reservation {
		delete this.ledger.held?.[key];
		const tallies = heldTalliesOf(this.ledger).get(key) ?? [this.ledger];
		heldTalliesOf(this.ledger).delete(key);
		this.reservedHere += credits;
		return { credits, open: true, key, tallies };
	}

	/** Whether a lost call with this key holds a reservation to take over. */
	holds(key: string): boolean {
		return this.ledger.held?.[key] !== undefined;
	}

	/** Whether a call with this key was sent before in this ledger: the API replays it, free. */
	sentBefore(key: string): boolean {
		return this.holds(key) || this.settledBefore(key);
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
	 * The charge the API reported replaces the worst case; a key settled before counts nothing more.
	 * Returns the charge counted, undefined for an impossible one (the worst case stays reserved).
	 */
	settle(reservation: Reservation, report: ChargeReport, replayed = false): number | undefined {
		const { credits_charged: charge, credits_remaining: remaining } = report;
		if (typeof remaining === 'number') this.creditsRemaining = remaining;
		const { key } = reservation;
		// A replay reports the first answer's charge, counted when that answer settled.
		const before = this.settledBefore(key);
		if (!before && !isPossibleCharge(charge, reservation.credits)) {
			this.impossibleCharges.push(JSON.stringify(charge) ?? String(charge));
			return undefined;
		}
		if (replayed || before) this.replayedHere++;
		const counted = before ? 0 : (charge as number);
		if (key !== undefined && !before) (this.ledger.settled ??= {})[key] = counted;
		this.release(reservation);
		for (const { tally } of this.caps) tally.charged += counted;
		this.chargedHere += counted;
		return counted;
	}

	/** A call whose answer stayed lost: its reservation is kept for the same call sent again later. */
	holdForReplay(reservation: Reservation): void {
		if (!reservation.open || reservation.key === undefined) return;
		(this.ledger.held ??= {})[reservation.key] = reservation.credits;
		heldTalliesOf(this.ledger).set(reservation.key, reservation.tallies);
	}

	/** Frees a reservation: the API refused the call (nothing charged), or its charge is counted. */
	release(reservation: Reservation): void {
		if (!reservation.open) return;
		reservation.open = false;
		for (const tally of reservation.tallies) tally.reserved -= reservation.credits;
		this.reservedHere -= reservation.credits;
	}
}
