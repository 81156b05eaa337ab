/**
 * The one charging loop of Unlock and Enrich. The calls the account ledger knows go first, under
 * their own key (chargingPlan.ts). Then new calls in order, each sized to what the budget still
 * holds (What Fits), until the run is bound to fail; a lost answer is sent once more, units an
 * answer left out are asked for once more. On every exit (return, throw, Stop) what may have been
 * charged stays held as lost.
 */
import { isRefusal } from '../client/failures';
import { forget, remember } from './account';
import { notAnswered, sendCharging, type ChargingCall } from './chargingCall';
import type { Charging } from './chargingOperation';
import { plannedCall, type Plan, type Planned } from './chargingPlan';
import type { ChargeReport } from './ledger';

const newCall = <A extends ChargeReport>(
	c: Charging<A>,
	units: string[],
	credits: number,
	askAgain?: { covers?: number },
) => reservedCall(c, plannedCall(c, units, credits, askAgain));

/** The call with its worst case reserved; undefined when it does not fit. */
function reservedCall<A extends ChargeReport>(c: Charging<A>, planned: Planned) {
	const { sent, body, credits, wants } = planned;
	const reservation = c.run.budget.reserve(credits, sent.key);
	if (!reservation) return undefined;
	const { op } = c;
	const ids = op.contacts ? wants : undefined;
	const itemIndex = op.itemOf(wants[0]);
	const call: ChargingCall = {
		path: op.path,
		body,
		sent,
		reservation,
		wants,
		ids,
		itemIndex,
		sends: 0,
	};
	return call;
}

/** Sends the plan within the budget; the units it did not send. */
export async function chargeAll<A extends ChargeReport>(c: Charging<A>, plan: Plan) {
	const lost: ChargingCall[] = []; // sent once, answer lost: sent once more
	const inFlight: ChargingCall[] = [];
	const notSent: string[] = [];
	try {
		for (const planned of plan.again) {
			const call = !balanceRefused(c) && reservedCall(c, planned);
			if (call) await send(c, call, inFlight);
			else notSent.push(...planned.wants);
		}
		const sentUpTo = await sendQueue(c, plan.queue, lost, inFlight);
		notSent.push(...plan.queue.slice(sentUpTo));
		await sendAgain(c, lost, inFlight);
	} finally {
		for (const call of [...lost, ...inFlight]) c.run.budget.keepLost(call.reservation, call.sent);
	}
	return notSent;
}

/** New calls in queue order, each what the budget still holds; how many units were sent. */
async function sendQueue<A extends ChargeReport>(
	c: Charging<A>,
	queue: string[],
	lost: ChargingCall[],
	inFlight: ChargingCall[],
): Promise<number> {
	const { budget, rank, cost } = c.run;
	let next = 0;
	while (next < queue.length && !c.stoppedBy) {
		const room = budget.headroom;
		let credits = 0;
		let to = next;
		for (; to < queue.length && to - next < c.op.unitsPerCall; to++) {
			const price = budget.priceOf(queue[to], rank, cost);
			if (credits + price > room) break;
			credits += price;
		}
		const call = to > next && newCall(c, queue.slice(next, to), credits);
		if (call) {
			next = to;
			if (await send(c, call, inFlight)) lost.push(call);
		} else if (lost.length > 0)
			await sendAgain(c, lost, inFlight); // its charge may leave room
		else break;
	}
	return next;
}

/** Each lost call sent once more; lost again, it is kept lost. */
async function sendAgain<A extends ChargeReport>(
	c: Charging<A>,
	lost: ChargingCall[],
	inFlight: ChargingCall[],
) {
	while (lost.length > 0 && !balanceRefused(c)) {
		await send(c, lost[0], inFlight);
		const [call] = lost.splice(0, 1);
		c.run.budget.keepLost(call.reservation, call.sent); // when its answer stayed lost
	}
}

/** Sends a call and sorts out what came of it by unit; true when a new call's answer was lost. */
async function send<A extends ChargeReport>(
	c: Charging<A>,
	call: ChargingCall,
	inFlight: ChargingCall[],
): Promise<boolean> {
	const { context, run, op } = c;
	// After a charge above its worst case no charging call is sent, a replay neither.
	if (call.sends > 0 && run.budget.overcharge !== undefined) {
		run.budget.keepLost(call.reservation, call.sent);
		return false;
	}
	inFlight.push(call);
	const sent = await sendCharging(context, run.budget, call, op.schema);
	inFlight.pop();
	if ('answer' in sent) return (await takeAnswer(c, call, sent, inFlight), false);
	// An ask again that came to nothing says nothing of what the first answer charged for them.
	const failure =
		call.askedAgain && !sent.lost ? notAnswered(context, call, call.wants) : sent.failure;
	for (const unit of call.wants) c.outcomes.set(unit, op.failedAs?.(failure, unit) ?? failure);
	if (sent.lost && call.sends === 1 && !call.reservation.sentBefore) return true;
	if (sent.lost) run.budget.keepLost(call.reservation, call.sent);
	if (isRefusal(sent.failure, 'insufficient_credits')) c.stoppedBy = sent.failure;
	// Not sent again by this run: its units' errors are final.
	else if (call.wants.some((u) => c.outcomes.get(u) instanceof Error)) boundToFail(c, sent.failure);
	return false;
}

/** A refused balance ends every call, a known one too; a failed item only the new ones. */
const balanceRefused = <A extends ChargeReport>(c: Charging<A>) =>
	isRefusal(c.stoppedBy, 'insufficient_credits');

/**
 * Without Continue On Fail a run with a failed item will fail: no new call is sent, since what it
 * would charge buys nothing the run outputs. Calls the ledger knows still go: they settle the money.
 */
function boundToFail<A extends ChargeReport>(c: Charging<A>, failure: Error): void {
	if (!c.context.continueOnFail()) c.stoppedBy ??= failure;
}

/**
 * Each unit answered is held at the level it came back with. Units left out are asked for once
 * more with what the charge leaves of the worst case; left out again, they may have been charged.
 */
async function takeAnswer<A extends ChargeReport>(
	c: Charging<A>,
	call: ChargingCall,
	{ answer, charged }: { answer: A; charged?: number },
	inFlight: ChargingCall[],
): Promise<void> {
	const { budget } = c.run;
	const { account } = budget;
	const answered = c.op.read(answer, call.sent.units);
	for (const [unit, { rank }] of answered) {
		if (rank > 0) budget.hold(unit, rank, call.sent.key);
		forget(account, 'leftOut', unit);
	}
	for (const unit of call.wants)
		if (answered.has(unit)) c.outcomes.set(unit, answered.get(unit)!.outcome);
	for (const [unit, { failure }] of answered)
		if (failure && c.wanted?.has(unit)) boundToFail(c, failure);
	const missing = call.wants.filter((unit) => !answered.has(unit));
	if (missing.length === 0) return;
	// Whatever comes of asking again, a later call's refusal says nothing of what this one charged.
	for (const unit of missing) remember(account, 'leftOut', unit, call.sent.key);
	const { rank, cost } = c.run;
	const worstCase = missing.reduce((sum, unit) => sum + budget.priceOf(unit, rank, cost), 0);
	// An unreadable charge keeps the whole worst case held already.
	const left =
		charged === undefined ? worstCase : Math.min(worstCase, call.reservation.credits - charged);
	// The answer may have charged what it left out (`left`): held back unless the ask again's own
	// charge tells otherwise (ledger.ts). An unreadable charge keeps its worst case held anyway.
	const covers = charged === undefined ? undefined : left;
	const again = !call.askedAgain && newCall(c, missing, left, { covers });
	if (again) {
		again.askedAgain = true;
		if (await send(c, again, inFlight)) budget.keepLost(again.reservation, again.sent);
		return;
	}
	// No room to ask again: held back now. Left out again: the ask again's `covers` holds it back.
	if (covers !== undefined && !call.askedAgain) budget.holdBack(covers);
	const failure = notAnswered(c.context, call, missing);
	for (const unit of missing) c.outcomes.set(unit, failure);
}
