/**
 * The lookup of the charging loop: for the units a run wants, the calls the account ledger knows
 * (a lost call of this node whose units are all wanted again, the settled call of each held unit, a
 * lost call the ledger forgot but the run still holds), each under its own key, and the units left
 * for new calls. Also how this run builds a call for a set of units, before it is reserved.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SentCall } from './account';
import type { Charging } from './chargingOperation';
import type { ChargeReport } from './ledger';

/** A call before its worst case is reserved. */
export type Planned = { sent: SentCall; body: IDataObject; credits: number; wants: string[] };

export interface Plan {
	/** Calls the ledger knows, sent again under their own key. */
	again: Planned[];
	/** Units for new calls, in order. */
	queue: string[];
}

/** The lookup: known calls for the wanted units first, the rest queued for new calls. */
export function planOf<A extends ChargeReport>(c: Charging<A>, units: string[]): Plan {
	const { budget, level, rank } = c.run;
	c.wanted = new Set(units);
	const wanted = new Set(units);
	const node = c.context.getNode().id;
	const again: Planned[] = [];
	for (const lost of Object.values(budget.account.lost))
		if (lost.node === node && lost.level === level && lost.units.every((u) => wanted.has(u))) {
			lost.units.forEach((unit) => wanted.delete(unit));
			again.push(knownCall(c, lost, lost.units, lost.credits));
		}
	const replays = new Map<string, string[]>();
	for (const unit of wanted) {
		const settled = budget.heldCallOf(unit, rank);
		if (settled) replays.set(settled.key, [...(replays.get(settled.key) ?? []), unit]);
	}
	for (const [key, wants] of replays) {
		wants.forEach((unit) => wanted.delete(unit));
		again.push(knownCall(c, budget.account.settled[key], wants, 0));
	}
	const queued = units.filter((unit) => wanted.has(unit));
	for (const forgotten of forgottenLost(c, queued)) {
		forgotten.wants.forEach((unit) => wanted.delete(unit));
		again.push(forgotten);
	}
	return { again, queue: units.filter((unit) => wanted.has(unit)) };
}

/**
 * Lost calls of this run the account ledger forgot (past its bound): the run's tally still holds
 * each one's worst case under its key. The units queued, cut as they were sent, make those keys
 * again, so each call is sent again under its own key instead of being priced as a new one.
 */
function forgottenLost<A extends ChargeReport>(c: Charging<A>, queue: string[]): Planned[] {
	const held = c.run.budget.run.lostWorstCases ?? {};
	const calls: Planned[] = [];
	if (Object.keys(held).length === 0) return calls;
	for (let at = 0; at < queue.length; at += c.op.unitsPerCall) {
		const call = plannedCall(c, queue.slice(at, at + c.op.unitsPerCall), 0);
		const credits = held[call.sent.key];
		if (credits !== undefined) calls.push({ ...call, credits });
	}
	return calls;
}

function knownCall<A extends ChargeReport>(
	{ op }: Charging<A>,
	sent: SentCall,
	wants: string[],
	credits: number,
): Planned {
	const { key, units, level, node, covers } = sent;
	const known = { key, units, level, node, covers };
	return { sent: known, body: op.bodyOf(units, level), credits, wants };
}

/**
 * A call for these units as this run sends it, before its worst case is reserved. An ask again for
 * units an answer left out has a key of its own: under the first call's, the API would replay the
 * answer that left them out.
 */
export function plannedCall<A extends ChargeReport>(
	c: Charging<A>,
	units: string[],
	credits: number,
	askAgain?: { covers?: number },
): Planned {
	const { op, run, context } = c;
	const body = op.bodyOf(units, run.level);
	const key = op.keyOf(askAgain ? { askedAgain: body } : body);
	const sent = { key, units, level: run.level, node: context.getNode().id, ...askAgain };
	return { sent, body, credits, wants: units };
}
