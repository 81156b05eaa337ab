/**
 * What one account (a credential's Base URL and API key, hashed) holds, settled and lost in this
 * execution, kept in n8n's flow context. Tool nodes on other keys never price each other's
 * contacts at 0, and a node's later tries and runs send its earlier calls again under their own key.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { UnlockLevel } from '../client/contract';

/**
 * A charging call as it was sent, enough to send it again exactly so under its own key. Its units
 * are what it charges for: contact ids (Unlock) or one person (Enrich).
 */
export interface SentCall {
	key: string;
	units: string[];
	level: UnlockLevel;
	/** The node that sent it: a lost call is taken over by the node that lost it. */
	node: string;
	/**
	 * Asking again for units an answer left out: what that answer may have charged for them, held
	 * back once this call's own charge is known.
	 */
	covers?: number;
}

/** A call whose answer stayed lost: it may have been charged up to `credits`, still held. */
export interface LostCall extends SentCall {
	credits: number;
	/** The day (UTC) it was sent, counted in: replayed on a later day, it counts in none of its caps. */
	day?: string;
}

/** A call the API answered, with the charge its key settled (null: the charge was unreadable). */
export interface SettledCall extends SentCall {
	charge: number | null;
}

export interface Account {
	lost: Record<string, LostCall>;
	settled: Record<string, SettledCall>;
	/** By unit: the rank held (1 basic, 2 premium) and the key of the settled call that holds it. */
	held: Record<string, [number, string]>;
	/** By unit: the key of a call whose answer left it out, which may have charged it. */
	leftOut: Record<string, string>;
	/** Entries of each record, kept beside them: counting keys of JSON read back is linear. */
	sizes: Record<Remembered, number>;
}

type Remembered = 'lost' | 'settled' | 'held' | 'leftOut';

/** Past a bound the oldest 1,000 are forgotten, which only ever prices and counts more. */
const BOUNDS: Record<Remembered, number> = {
	lost: 1_000,
	settled: 10_000,
	held: 100_000,
	leftOut: 100_000,
};

export function remember<K extends Remembered>(
	account: Account,
	kind: K,
	key: string,
	value: Account[K][string],
): void {
	const record = account[kind] as Record<string, unknown>;
	if (record[key] === undefined) account.sizes[kind]++;
	record[key] = value;
	if (account.sizes[kind] <= BOUNDS[kind]) return;
	for (const old of Object.keys(record).slice(0, 1_000)) delete record[old];
	account.sizes[kind] -= 1_000;
}

export function forget(account: Account, kind: Remembered, key: string): void {
	const record = account[kind] as Record<string, unknown>;
	if (record[key] === undefined) return;
	delete record[key];
	account.sizes[kind]--;
}

const emptyAccount = (): Account => ({
	lost: {},
	settled: {},
	held: {},
	leftOut: {},
	sizes: { lost: 0, settled: 0, held: 0, leftOut: 0 },
});

/** The account's record in the execution's flow context; never the key itself. */
export function accountOf(
	flow: IDataObject,
	credential?: { baseUrl: string; keyHash: string },
): Account {
	if (!credential) return emptyAccount();
	const name = createHash('sha256')
		.update(`${credential.baseUrl}\n${credential.keyHash}`)
		.digest('hex')
		.slice(0, 16);
	const accounts = (flow.contactDataAccounts ??= {}) as Record<string, Account>;
	return (accounts[name] ??= emptyAccount());
}
