/**
 * The faults a call to the fake API may meet, one drawn per request (test/model/fakeApi.ts). On a
 * key the API carried out before, a 429, a 5xx, a lost answer and a body it cannot read take effect
 * too; the rest do not (a replay is never a 402: it returns the first answer).
 */
export const FAULTS = [
	'none',
	/** The connection drops before the API charged, or after (the answer is lost). */
	'lostBefore',
	'lostAfter',
	/** 402: the balance is short; nothing charged. */
	'noBalance',
	/** 429 for this key until the node gives up. */
	'rateLimited',
	/** 503 once: nothing charged. */
	'unavailable',
	/** From this request on, nothing listens until the run ends. */
	'refused',
	/** The API charges and never answers: the node's timeout ends the call. */
	'timeout',
	/** The answer leaves out the last requested id (charging only those it gives). */
	'omitted',
	/** The answer leaves out the last id, which the API debited; its charge counts only those it gives. */
	'omittedCharged',
	/** Both at once: ids left out, and a charge that cannot be read. */
	'omittedUnreadable',
	/** A reported charge the contract rules out, while the API debits what the contract says. */
	'unreadable',
	'negative',
	'fraction',
	'aboveWorst',
	/** A 2xx whose body is not JSON, or fails the answer's schema: the API carried the call out. */
	'notJson',
	'badSchema',
	/** The API debits (and reports) more than the call's worst case. */
	'overcharge',
	/** A replay without `Idempotent-Replayed`, and a first answer that forges it. */
	'replayWithout',
	'replayForged',
] as const;
export type Fault = (typeof FAULTS)[number];

/** The faults that take effect on a replay of a key carried out before. */
export const REPLAY_FAULTS: ReadonlySet<Fault> = new Set<Fault>([
	'lostBefore',
	'lostAfter',
	'rateLimited',
	'unavailable',
	'timeout',
	'notJson',
	'badSchema',
	'replayWithout',
]);

/** Reported charges the contract rules out, for a call whose worst case is `worstCase`. */
export function reportedCharge(fault: Fault, charged: number, worstCase: number): unknown {
	if (fault === 'unreadable' || fault === 'omittedUnreadable') return 'two';
	if (fault === 'negative') return -1;
	if (fault === 'fraction') return charged + 0.5;
	if (fault === 'aboveWorst') return worstCase + 3;
	return charged;
}

/** What an overcharging API debits beyond the call's worst case. */
export const OVERCHARGE = 2;
