/**
 * The credit rules of Unlock and Enrich, free of n8n. Every cap is a hard ceiling: a call is sent
 * once its worst case is reserved in every tally, and the charge reported replaces it, once per
 * Idempotency-Key. A contact held at a level costs nothing more at that level or below (the
 * contract). A lost answer's worst case stays held under its key, with its ids, for the same call
 * sent again. A charge the contract rules out keeps the worst case; one above it ends the charging
 * calls, so a misbehaving API passes a cap by one call at most.
 */
export interface ChargeReport {
	credits_charged?: unknown;
	credits_remaining?: unknown;
}

/** What a cap counts, as plain JSON: a run's ledger lives in n8n's flow context. */
export interface Tally {
	charged: number;
	reserved: number;
	/** The charge of each settled Idempotency-Key. */
	settled?: Record<string, number>;
	/** Calls whose answer stayed lost, by key: their worst case (part of `reserved`) and ids. */
	lost?: Record<string, { credits: number; ids?: string[] }>;
	/** Contacts and people charged: the rank of the highest level held (1 basic, 2 premium). */
	held?: Record<string, number>;
	/** Entries of each record, kept beside them: counting keys of JSON read back is linear. */
	sizes?: Partial<Record<Remembered, number>>;
}

type Remembered = 'settled' | 'lost' | 'held';

/** Past a bound the oldest 1,000 are forgotten, which only ever counts more. */
const BOUNDS: Record<Remembered, number> = { settled: 10_000, lost: 1_000, held: 100_000 };

function remember(tally: Tally, kind: Remembered, key: string, value: unknown): void {
	const record = (tally[kind] ??= {}) as Record<string, unknown>;
	const sizes = (tally.sizes ??= {});
	if (record[key] === undefined) sizes[kind] = (sizes[kind] ?? 0) + 1;
	record[key] = value;
	if (sizes[kind]! <= BOUNDS[kind]) return;
	for (const old of Object.keys(record).slice(0, 1_000)) delete record[old];
	sizes[kind]! -= 1_000;
}

export interface Cap {
	/** As the editor shows it: "Max Credits", "Max Credits per Day". */
	label: string;
	max: number;
	tally: Tally;
	/** The tool answer's field of what is left of a cap over time. */
	leftField?: 'left_today' | 'left_in_session';
}

/** One call's worst case, held in each tally (released from that one, never a later day's). */
export interface Reservation {
	credits: number;
	open: boolean;
	key?: string;
	/** Its key was sent before: a refusal now says nothing of that earlier send. */
	sentBefore: boolean;
	shares: { tally: Tally; credits: number }[];
}

export const leftOf = ({ max, tally }: Cap): number =>
	Math.max(0, max - tally.charged - tally.reserved);

const isCharge = (charge: unknown): charge is number =>
	typeof charge === 'number' && Number.isInteger(charge) && charge >= 0;

export class CreditBudget {
	/** What this node run charged and still holds for lost answers. */
	chargedHere = 0;
	reservedHere = 0;
	replayedHere = 0;
	creditsRemaining: number | null = null;
	/** Charges the contract rules out, as reported. */
	readonly impossibleCharges: string[] = [];
	/** A charge above its call's worst case: no charging call follows. */
	overcharge?: number;
	/** Max Credits first, then the caps over time. */
	readonly caps: Cap[];
	private readonly lostByFirstId = new Map<string, string[]>();

	constructor(
		readonly maxCredits: number,
		private readonly ledger: Tally = { charged: 0, reserved: 0 },
		/** Shared by the tool calls of an execution. */
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

	get headroom(): number {
		return this.overcharge === undefined ? Math.min(...this.caps.map(leftOf)) : 0;
	}

	/** The cap that leaves the least (Max Credits on a tie). */
	get tightest(): Cap {
		return this.caps.reduce((tightest, cap) => (leftOf(cap) < leftOf(tightest) ? cap : tightest));
	}

	priceOf(id: string, rank: number, cost: number): number {
		return (this.ledger.held?.[id] ?? 0) >= rank ? 0 : cost;
	}

	hold(id: string, rank: number): void {
		if ((this.ledger.held?.[id] ?? 0) < rank) remember(this.ledger, 'held', id, rank);
	}

	/** The ids of a lost call starting with this id. */
	lostCallFrom(firstId: string): string[] | undefined {
		return this.lostByFirstId.get(firstId);
	}

	/**
	 * Holds a call's worst case in every tally, or undefined when it does not fit or a cap was passed.
	 * In a tally that lost the key the call takes the held worst case over; one that settled it holds
	 * nothing (a free replay). A call sent before is never refused: its worst case was held.
	 */
	reserve(credits: number, key?: string): Reservation | undefined {
		if (this.overcharge !== undefined) return undefined;
		const sentBefore = key !== undefined && this.sentBefore(key);
		const shares = this.caps.map(({ tally }) => {
			const lost = key === undefined ? undefined : tally.lost?.[key];
			const settled = key !== undefined && tally.settled?.[key] !== undefined;
			return { tally, credits: lost?.credits ?? (settled ? 0 : credits), lost: !!lost };
		});
		const fits = shares.every(({ credits, lost }, at) => lost || credits <= leftOf(this.caps[at]));
		const passed = this.caps.some(({ max, tally }) => tally.charged > max);
		if ((!fits || passed) && !sentBefore) return undefined;
		for (const { tally, credits, lost } of shares)
			if (!lost) tally.reserved += credits;
			else {
				delete tally.lost![key!];
				tally.sizes!.lost! -= 1;
			}
		this.reservedHere += shares[0].credits;
		const held = shares.map(({ tally, credits }) => ({ tally, credits }));
		return { credits: shares[0].credits, open: true, key, sentBefore, shares: held };
	}

	/**
	 * The charge counted against Max Credits: a key a tally settled counts nothing more there, replayed
	 * or not. Undefined for a charge the contract rules out or one that differs from a tally's
	 * remembered charge for the key: its worst case stays reserved.
	 */
	settle(reservation: Reservation, report: ChargeReport, replayed = false): number | undefined {
		const { credits_charged: charge, credits_remaining: remaining } = report;
		if (typeof remaining === 'number') this.creditsRemaining = remaining;
		const { key } = reservation;
		const firsts = this.caps.map(({ tally }) => (key ? tally.settled?.[key] : undefined));
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

	sentBefore(key: string): boolean {
		return this.caps.some(({ tally }) => (tally.lost?.[key] ?? tally.settled?.[key]) !== undefined);
	}

	/** A call whose answer stayed lost: its worst case stays held under its key, with its ids. */
	keepLost(reservation: Reservation, ids?: string[]): void {
		if (!reservation.open || reservation.key === undefined) return;
		for (const { tally, credits } of reservation.shares)
			if (credits > 0) remember(tally, 'lost', reservation.key, { credits, ids });
	}

	/** Frees a reservation: the call was refused (nothing charged), or its charge is counted. */
	release(reservation: Reservation): void {
		if (!reservation.open) return;
		reservation.open = false;
		for (const { tally, credits } of reservation.shares) tally.reserved -= credits;
		this.reservedHere -= reservation.credits;
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
	const tally = store.get(key) ?? { charged: 0, reserved: 0 };
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
