/** One charging call (Unlock, Enrich): sent once its worst case is reserved, settled as charged. */
import { NodeApiError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import { HEADERS } from '../client/contract';
import { ApiFailure, certainlyNotCarriedOut, failureOf } from '../client/failures';
import { firstHeaderValue } from '../client/headers';
import { apiRequest } from '../client/transport';
import { asNodeError } from '../items/items';
import { runsAsTool } from '../items/toolCall';
import { editorFieldNames } from '../parameters/fieldNames';
import { plural } from '../parameters/utilities';
import type { SentCall } from './account';
import type { ChargeReport, CreditBudget, Reservation } from './ledger';

export interface ChargingCall {
	path: string;
	body: IDataObject;
	/** What the account ledger keeps of it, to send it again exactly as sent. */
	sent: SentCall;
	reservation: Reservation;
	/** The units whose outcome it gives (a settled call sent again may ask for more). */
	wants: string[];
	/** The contacts it is about (Unlock), for its errors. */
	ids?: string[];
	/** The input item its errors name until each item's error names its own. */
	itemIndex: number;
	/** How often this run sent it to the API, each time with the transport's retries. */
	sends: number;
	/** It asks again for units an answer left out: asked twice at most. */
	askedAgain?: boolean;
}

export type Sent<A> = { answer: A; charged?: number } | { failure: NodeApiError; lost: boolean };

/** Its answer and the charge counted, or its failure (a lost one may be sent again). */
export async function sendCharging<A extends ChargeReport>(
	context: IExecuteFunctions,
	budget: CreditBudget,
	call: ChargingCall,
	schema: ZodType<A, ZodTypeDef, unknown>,
): Promise<Sent<A>> {
	const { path, body, reservation, itemIndex, sent } = call;
	call.sends++;
	try {
		const response = await (apiRequest<A>).call(context, {
			...{ method: 'POST', path, body, schema, fieldNames: editorFieldNames },
			...{ idempotencyKey: sent.key, itemIndex },
		});
		const replayed = firstHeaderValue(response.headers, HEADERS.idempotentReplayed) === 'true';
		const charged = budget.settle(reservation, sent, response.body, replayed);
		return { answer: response.body, charged };
	} catch (error) {
		// Stop pressed: the loop keeps the call as lost (it may have been carried out).
		if (context.getExecutionCancelSignal()?.aborted) throw asNodeError(context, error, itemIndex);
		// Not carried out (a 4xx, a 429 given up, nothing listening) on its only send: nothing charged.
		// A refusal of a call sent before says nothing of the earlier send whose answer was lost.
		const notCharged = certainlyNotCarriedOut(error) && call.sends === 1 && !reservation.sentBefore;
		if (notCharged) {
			budget.release(reservation);
			budget.holdBack(sent.covers ?? 0);
		}
		if (failureOf(error)?.kind === 'notSent') call.sends--; // it never reached the API
		// An answer it cannot read is not sent again by this run; its worst case stays held under its
		// key, as a lost answer's, so a later run that sends it again does not count it as its own.
		const unreadable = failureOf(error)?.kind === 'unreadableAnswer';
		if (unreadable) budget.keepLost(reservation, sent);
		const lost = !notCharged && !unreadable;
		const leftOut = call.wants.filter((unit) => budget.account.leftOut[unit] !== undefined);
		return { failure: chargingFailure(context, call, error, notCharged, leftOut), lost };
	}
}

/** A failed call's error: what happened and what it may have charged (the run's money: finishRun). */
function chargingFailure(
	context: IExecuteFunctions,
	call: ChargingCall,
	error: unknown,
	notCharged: boolean,
	/** Its units an earlier answer left out: that answer may have charged them. */
	leftOut: string[],
): NodeApiError {
	const { message, description } = error as { message?: string; description?: string | null };
	const { kind = 'lostAnswer', apiCode, headline = message } = failureOf(error) ?? {};
	// A refusal after an earlier send: that send may have been carried out, whatever this one met.
	const mayHaveCharged = !notCharged && certainlyNotCarriedOut(error);
	// The status the API answered; none (httpCode null, which Number reads as 0) for no answer.
	const status = error instanceof NodeApiError && error.httpCode ? Number(error.httpCode) : NaN;
	const balance = 'Check Credits → Get Balance before running it again.';
	const why = mayHaveCharged
		? `An earlier send of this call got no answer and may have been carried out. ${balance}`
		: notCharged && call.askedAgain
			? `${failureOf(error)?.apiCode ?? 'Refused'}: the ids were asked for again because an answer left them out. ${balance}`
			: description;
	const said = sentText(call, notCharged, leftOut);
	// A model reads only the message; on the canvas it is short, and the rest is below it.
	const tool = runsAsTool(context);
	return new ApiFailure(context, mayHaveCharged ? 'lostAnswer' : kind, {
		message: `${headline ?? String(error)}${tool ? `. ${said}` : mayHaveChargedText(call, notCharged)}`,
		description: (tool ? [why] : [`${said}.`, why]).filter(Boolean).join(' ') || undefined,
		status: Number.isInteger(status) ? status : undefined,
		apiCode,
		itemIndex: call.itemIndex,
	});
}

/** What a call may have charged, said in a short message. */
function mayHaveChargedText({ sends, reservation }: ChargingCall, notCharged: boolean): string {
	if (notCharged || sends === 0 || reservation.credits === 0) return '';
	return `; it may have charged up to ${plural(reservation.credits, 'credit')}`;
}

function sentText(call: ChargingCall, notCharged: boolean, leftOut: string[]): string {
	const { path, sends, reservation, ids } = call;
	const named = ids && ids.length <= 3 ? contactsNamed(ids) : plural(ids?.length ?? 0, 'contact');
	const what = `${path} ${ids ? `for ${named} ` : ''}`;
	// Asked again, by this try or a later one: the answer that left them out may have charged them.
	if (notCharged && leftOut.length > 0) {
		const them = leftOut.length === 1 ? 'it' : 'them';
		return `${what}was refused; an earlier answer left ${ids ? contactsNamed(leftOut) : them} out and may have charged ${them}`;
	}
	if (notCharged) return `${what}was refused, so this call was not charged`;
	if (sends === 0) return `${what}did not reach the API this time`;
	const times = sends === 1 ? 'once' : sends === 2 ? 'twice' : `${sends} times`;
	return `${what}was sent ${times} with the same Idempotency-Key and may have charged up to ${plural(reservation.credits, 'credit')} (counted against Max Credits until the API reports the charge); running the same contacts again returns them free`;
}

/** Ids an answer left out, after the asks actually made: they may have been charged. */
export function notAnswered(context: IExecuteFunctions, call: ChargingCall, missing: string[]) {
	const asked = !call.askedAgain
		? 'once (the budget left no room to ask again)'
		: call.sends > 0
			? 'twice'
			: 'once (asking again did not reach the API)';
	return new ApiFailure(context, 'notAnswered', {
		message: `The Contact Data API did not answer for ${contactsNamed(missing)}: it may have been charged`,
		description: `${call.path} was asked for ${missing.join(', ')} ${asked}, and its answer had no entry for ${missing.length === 1 ? 'it' : 'them'}. Its worst case stays counted against Max Credits. Check Credits → Get Balance, then run again: a contact already unlocked comes back free of charge.`,
		itemIndex: call.itemIndex,
	});
}

const contactsNamed = (ids: string[]): string =>
	`${ids.length === 1 ? 'contact' : 'contacts'} ${ids.join(', ')}`;
