/**
 * The credit rules of Unlock and Enrich, with no n8n context (tested with plain values and a fake
 * clock). Max Credits, and each cap over time, is a hard ceiling:
 * - a call is sent only once its worst case is reserved in every tally;
 * - a contact (or person) the ledger saw charged at a level costs nothing more at that level or
 *   below (the contract), so it needs no room;
 * - the charge an answer reports replaces the worst case, counted once per Idempotency-Key; one the
 *   contract rules out keeps the worst case held; one above the worst case is counted as reported
 *   and ends the run's charging calls, so a misbehaving API passes a cap by one call at most;
 * - a call whose answer stayed lost keeps its worst case held under its key, with its ids: the same
 *   call sent again takes it over.
 */
export type WhenMaxCreditsReached = 'stop' | 'whatFits';

export interface ChargeReport {
	credits_charged?: unknown;
	credits_remaining?: unknown;
}

/** What a cap counts, as plain JSON: a run's ledger is kept in n8n's flow context. */
export interface Tally {
	charged: number;
	reserved: number;
	/** The charge of each settled Idempotency-Key. */
	settled?: Record<string, number>;
	/** Calls whose answer stayed lost, by Idempotency-Key: their worst case (part of `reserved`). */
	lost?: Record<string, { credits: number; ids?: string[] }>;
	/** Contacts and people seen charged: the rank of the highest level held (1 basic, 2 premium). */
	held?: Record<string, number>;
	/** How many entries each record has (read back from JSON, so kept beside them). */
	sizes?: Partial<Record<Remembered, number>>;
}

type Remembered = 'settled' | 'lost' | 'held';

/**
 * Entries a tally keeps of each kind; past that the oldest 1,000 are forgotten, which only counts
 * more: a settled key forgotten counts its replay again, a held contact costs its price again, and
 * a lost call's worst case stays reserved.
 */
const BOUNDS: Record<Remembered, number> = { settled: 10_000, lost: 1_000, held: 100_000 };
const FORGET_AT_ONCE = 1_000;

function remember<K extends Remembered>(
	tally: Tally,
	kind: K,
	key: string,
	value: NonNullable<Tally[K]>[string],
): void {
	const record = (tally[kind] ??= {}) as Record<string, unknown>;
	const sizes = (tally.sizes ??= {});
	if (record[key] === undefined) sizes[kind] = (sizes[kind] ?? 0) + 1;
	record[key] = value;
	if (sizes[kind]! <= BOUNDS[kind]) return;
	const oldest = Object.keys(record).slice(0, FORGET_AT_ONCE);
	for (const old of oldest) delete record[old];
	sizes[kind]! -= oldest.length;
}

function forget(tally: Tally, kind: Remembered, key: string): void {
	if (tally[kind]?.[key] === undefined) return;
	delete tally[kind]![key];
	tally.sizes![kind]! -= 1;
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
	/** What it holds against Max Credits. */
	credits: number;
	open: boolean;
	key?: string;
	/** Whether its key was sent before: a refusal now says nothing of that earlier send. */
	sentBefore: boolean;
	/** What it holds in each tally: released from those, never from a later day's. */
	shares: { tally: Tally; credits: number }[];
}

export const leftOf = ({ max, tally }: Cap): number =>
	Math.max(0, max - tally.charged - tally.reserved);

/** Stop Before Spending: whether a run whose worst case is `worstCase` must send nothing. */
export const mustStop = (policy: WhenMaxCreditsReached, worstCase: number, headroom: number) =>
	policy === 'stop' && worstCase > headroom;

const isCharge = (charge: unknown): charge is number =>
	typeof charge === 'number' && Number.isInteger(charge) && charge >= 0;

export class CreditBudget {
	/** What this node run charged, held reserved at its end, and had answered as replays. */
	chargedHere = 0;
	reservedHere = 0;
	replayedHere = 0;
	/** The balance the API reported after this run's last settled call (null before any). */
	creditsRemaining: number | null = null;
	/** Charges the contract rules out, as reported: their worst case stays reserved. */
	readonly impossibleCharges: string[] = [];
	/** A charge above its call's worst case, counted as reported: no charging call follows. */
	overcharge?: number;
	/** Max Credits first, then the caps over time: every reservation and charge counts in each. */
	readonly caps: Cap[];
	/** The lost calls of the ledger that take ids, by their first id. */
	private readonly lostByFirstId = new Map<string, string[]>();

	constructor(
		readonly maxCredits: number,
		private readonly ledger: Tally = { charged: 0, reserved: 0 },
		/** Whether the ledger is shared by the tool calls of an execution. */
		readonly shared = false,
		capsOverTime: Cap[] = [],
	) {
		this.caps = [{ label: 'Max Credits', max: maxCredits, tally: ledger }, ...capsOverTime];
		for (const { ids } of Object.values(ledger.lost ?? {}))
			if (ids?.length) this.lostByFirstId.set(ids[0], ids);
	}

	get charged(): number {
		return this.ledger.charged;
	}

	/** What every cap still leaves; none after an overcharge. */
	get headroom(): number {
		return this.overcharge === undefined ? Math.min(...this.caps.map(leftOf)) : 0;
	}

	/** The cap that leaves the least (Max Credits when several leave as little). */
	get tightest(): Cap {
		return this.caps.reduce((tightest, cap) => (leftOf(cap) < leftOf(tightest) ? cap : tightest));
	}

	/** A contact's (or person's) worst case: nothing when the ledger saw it charged at this level or above. */
	priceOf(id: string, rank: number, cost: number): number {
		return (this.ledger.held?.[id] ?? 0) >= rank ? 0 : cost;
	}

	/** Notes a contact (or person) as held at a level's rank. */
	hold(id: string, rank: number): void {
		if ((this.ledger.held?.[id] ?? 0) < rank) remember(this.ledger, 'held', id, rank);
	}

	/** The ids of a lost call starting with this id: sent as they were, it takes its worst case over. */
	lostCallFrom(firstId: string): string[] | undefined {
		return this.lostByFirstId.get(firstId);
	}

	/**
	 * Holds a call's worst case in every tally: a lost call's key takes its held worst case over, and
	 * a key a tally settled holds nothing there (the API answers it again for free). A call sent before
	 * is never refused: its worst case was held when it was first sent. Undefined: it does not fit,
	 * or an overcharge ended the charging calls (of this run, or of any run its caps count).
	 */
	reserve(credits: number, key?: string): Reservation | undefined {
		if (this.overcharge !== undefined) return undefined;
		const sentBefore = key !== undefined && this.sentBefore(key);
		const shares = this.caps.map(({ tally }) => {
			const lost = key === undefined ? undefined : tally.lost?.[key];
			const settled = key !== undefined && tally.settled?.[key] !== undefined;
			return { tally, credits: lost?.credits ?? (settled ? 0 : credits), fresh: !lost };
		});
		const fits = shares.every(
			({ credits, fresh }, at) => !fresh || credits <= leftOf(this.caps[at]),
		);
		// A cap already passed (an overcharge counted) sends no new call, not even of held contacts.
		const passed = this.caps.some(({ max, tally }) => tally.charged > max);
		if ((!fits || passed) && !sentBefore) return undefined;
		for (const { tally, credits, fresh } of shares)
			if (fresh) tally.reserved += credits;
			else forget(tally, 'lost', key!);
		this.reservedHere += shares[0].credits;
		const held = shares.map(({ tally, credits }) => ({ tally, credits }));
		return { credits: shares[0].credits, open: true, key, sentBefore, shares: held };
	}

	/**
	 * The charge the API reported replaces the worst case; a key a tally settled before counts nothing
	 * more there, whether or not the answer says it is a replay. Returns the charge counted against
	 * Max Credits; undefined for one the contract rules out, or one that differs from the charge a
	 * tally remembers for the key (its worst case stays reserved).
	 */
	settle(reservation: Reservation, report: ChargeReport, replayed = false): number | undefined {
		const { credits_charged: charge, credits_remaining: remaining } = report;
		if (typeof remaining === 'number') this.creditsRemaining = remaining;
		const { key } = reservation;
		const firsts = this.caps.map(({ tally }) =>
			key === undefined ? undefined : tally.settled?.[key],
		);
		if (!isCharge(charge) || firsts.some((first) => first !== undefined && first !== charge)) {
			this.impossibleCharges.push(JSON.stringify(charge) ?? String(charge));
			return undefined;
		}
		const before = firsts[0] !== undefined;
		if (replayed || before) this.replayedHere++;
		if (!before && charge > reservation.credits) this.overcharge = charge;
		this.release(reservation);
		this.caps.forEach(({ tally }, at) => {
			if (firsts[at] !== undefined) return;
			tally.charged += charge;
			if (key !== undefined) remember(tally, 'settled', key, charge);
		});
		const counted = before ? 0 : charge;
		this.chargedHere += counted;
		return counted;
	}

	/** Whether a call with this key was sent before: lost (its worst case held) or settled (a free replay). */
	sentBefore(key: string): boolean {
		return this.caps.some(({ tally }) => (tally.lost?.[key] ?? tally.settled?.[key]) !== undefined);
	}

	/** A call whose answer stayed lost: its worst case stays held, with its ids, for the same call sent again. */
	keepLost(reservation: Reservation, ids?: string[]): void {
		if (!reservation.open || reservation.key === undefined) return;
		for (const { tally, credits } of reservation.shares)
			if (credits > 0) remember(tally, 'lost', reservation.key, { credits, ids });
	}

	/** Frees a reservation: the API refused the call (nothing charged), or its charge is counted. */
	release(reservation: Reservation): void {
		if (!reservation.open) return;
		reservation.open = false;
		for (const { tally, credits } of reservation.shares) tally.reserved -= credits;
		this.reservedHere -= reservation.credits;
	}
}

/**
 * Tallies of caps over time in this process. Past the limit only the least recently used session
 * tally is dropped (its session then starts afresh; the daily cap still holds), and a day's tally
 * only once that day is over: no eviction raises what the daily cap allows. A key's kind is its
 * first word, so no session id (which the MCP client sends) can pass for a day.
 */
const MAX_TALLIES = 10_000;
const tallies = new Map<string, Tally>();
/** The latest day each store counted: a clock set back never reopens a day already dropped. */
const latestDays = new WeakMap<Map<string, Tally>, string>();

/** The tally of a cap over time: per node and UTC day of `now`, or per node and MCP session. */
export function tallyOf(
	node: string,
	over: { now: number } | { session: string },
	store = tallies,
): Tally {
	const day = 'now' in over ? dayOf(store, over.now) : undefined;
	const key = 'session' in over ? `session|${node}|${over.session}` : `day|${day}|${node}`;
	const tally = store.get(key) ?? { charged: 0, reserved: 0 };
	// Used last, so dropped last.
	store.delete(key);
	store.set(key, tally);
	if (day) dropPastDays(store, day);
	if (store.size > MAX_TALLIES) dropOldestSession(store);
	return tally;
}

function dayOf(store: Map<string, Tally>, now: number): string {
	const day = new Date(now).toISOString().slice(0, 10);
	const latest = latestDays.get(store);
	if (latest !== undefined && latest > day) return latest;
	latestDays.set(store, day);
	return day;
}

function dropPastDays(store: Map<string, Tally>, today: string): void {
	for (const key of store.keys())
		if (key.startsWith('day|') && key.slice(4, 14) < today) store.delete(key);
}

function dropOldestSession(store: Map<string, Tally>): void {
	for (const key of store.keys())
		if (key.startsWith('session|')) {
			store.delete(key);
			return;
		}
}
