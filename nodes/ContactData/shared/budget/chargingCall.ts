/** One charging call (Unlock, Enrich): sent once its worst case is reserved, settled as charged. */
import { NodeApiError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import { HEADERS } from '../client/contract';
import { ApiFailure, certainlyNotCarriedOut, failureOf } from '../client/failures';
import { firstHeaderValue } from '../client/headers';
import { apiRequest } from '../client/transport';
import { asNodeError } from '../items/items';
import { editorFieldNames } from '../parameters/fieldNames';
import { plural } from '../parameters/utilities';
import type { ChargeReport, CreditBudget, Reservation } from './ledger';

export interface ChargingCall {
	path: string;
	body: IDataObject;
	reservation: Reservation;
	/** The input item its errors name. */
	itemIndex?: number;
	/** The contacts it asks for (Unlock). */
	ids?: string[];
	/** How often the node sent it, each time with the transport's retries. */
	sends: number;
	/** It asks again for ids an answer left out: asked twice at most. */
	askedAgain?: boolean;
}

/** A call with its worst case reserved under its key; undefined when it does not fit. */
export function chargingCallOf(
	budget: CreditBudget,
	{
		key,
		credits,
		...call
	}: Omit<ChargingCall, 'reservation' | 'sends'> & { key: string; credits: number },
): ChargingCall | undefined {
	const reservation = budget.reserve(credits, key);
	return reservation && { ...call, reservation, sends: 0 };
}

/** Its answer and the charge counted, or its failure (a lost one may be replayed). */
export async function sendCharging<A extends ChargeReport>(
	context: IExecuteFunctions,
	budget: CreditBudget,
	call: ChargingCall,
	schema: ZodType<A, ZodTypeDef, unknown>,
): Promise<{ answer: A; charged?: number } | { failure: NodeApiError; lost: boolean }> {
	const { path, body, reservation, itemIndex } = call;
	call.sends++;
	try {
		const response = await (apiRequest<A>).call(context, {
			...{ method: 'POST', path, body, schema, fieldNames: editorFieldNames },
			...{ idempotencyKey: reservation.key, itemIndex },
		});
		const replayed = firstHeaderValue(response.headers, HEADERS.idempotentReplayed) === 'true';
		return { answer: response.body, charged: budget.settle(reservation, response.body, replayed) };
	} catch (error) {
		// Stop pressed: send nothing more (the call stays reserved: it may have been carried out).
		if (context.getExecutionCancelSignal()?.aborted) throw asNodeError(context, error, itemIndex);
		// A refusal of a call sent before says nothing of the earlier send whose answer was lost.
		const refused = certainlyNotCarriedOut(error) && call.sends === 1 && !reservation.sentBefore;
		if (refused) budget.release(reservation);
		const lost = !refused && failureOf(error)?.kind !== 'unreadableAnswer';
		return { failure: chargingFailure(context, budget, call, error, refused), lost };
	}
}

/** A failed call's error, written once: what happened, what it may have charged, what the run charged. */
function chargingFailure(
	context: IExecuteFunctions,
	budget: CreditBudget,
	call: ChargingCall,
	error: unknown,
	refused: boolean,
): NodeApiError {
	const { message, description } = error as { message?: string; description?: string | null };
	const { kind = 'lostAnswer', apiCode, headline = message } = failureOf(error) ?? {};
	// A refusal after an earlier send: that send may have been carried out, whatever this one met.
	const mayHaveCharged = !refused && certainlyNotCarriedOut(error);
	const status = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
	return new ApiFailure(context, mayHaveCharged ? 'lostAnswer' : kind, {
		message: `${headline ?? String(error)}. ${sentText(call, refused)}${chargedBeforeText(context, budget)}`,
		description: mayHaveCharged
			? 'An earlier send of this call got no answer and may have been carried out. Check Credits → Get Balance before running it again.'
			: (description ?? undefined),
		status: Number.isInteger(status) ? status : undefined,
		apiCode,
		itemIndex: call.itemIndex,
	});
}

function sentText({ path, sends, reservation, ids }: ChargingCall, refused: boolean): string {
	const named = ids && ids.length <= 3 ? contactsNamed(ids) : plural(ids?.length ?? 0, 'contact');
	const what = `${path} ${ids ? `for ${named} ` : ''}`;
	if (refused) return `${what}was refused, so this call was not charged`;
	const times = sends === 1 ? 'once' : sends === 2 ? 'twice' : `${sends} times`;
	return `${what}was sent ${times} with the same Idempotency-Key and may have charged up to ${plural(reservation.credits, 'credit')} (counted against Max Credits until the API reports the charge); running the same contacts again returns them free`;
}

function chargedBeforeText(context: IExecuteFunctions, { chargedHere }: CreditBudget): string {
	if (chargedHere === 0) return '';
	const where = context.continueOnFail()
		? 'those contacts are in the output'
		: 'run again and those contacts come back free';
	return `. This run's earlier calls charged ${plural(chargedHere, 'credit')}: ${where}`;
}

/** Ids an answer left out twice: they may have been charged. */
export function notAnswered(context: IExecuteFunctions, call: ChargingCall, missing: string[]) {
	return new ApiFailure(context, 'notAnswered', {
		message: `The Contact Data API did not answer for ${contactsNamed(missing)}: it may have been charged`,
		description: `${call.path} was asked for ${missing.join(', ')} twice, and its answer had no entry for ${missing.length === 1 ? 'it' : 'them'} either time. Its worst case stays counted against Max Credits. Check Credits → Get Balance, then run again: a contact already unlocked comes back free of charge.`,
		itemIndex: call.itemIndex,
	});
}

const contactsNamed = (ids: string[]): string =>
	`${ids.length === 1 ? 'contact' : 'contacts'} ${ids.join(', ')}`;
