/**
 * Sending charging calls (Unlock, Enrich): each reserved, sent with its Idempotency-Key, settled
 * with the charge the API reports, replayed once when its answer was lost, and checked to answer
 * every id it asked for. The operation passes in its path and schema, how an answer mirrors its
 * request, and what it does with each settled call.
 */
import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type NodeOperationError,
} from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import { HEADERS } from '../client/contract';
import { apiFailure, certainlyNotCarriedOut, failureOf } from '../client/failures';
import { firstHeaderValue } from '../client/headers';
import { idempotencyKeyFor } from '../client/idempotency';
import { apiRequest } from '../client/transport';
import { asNodeError } from '../items/items';
import { editorFieldNames } from '../parameters/fieldNames';
import { plural } from '../parameters/utilities';
import type { ChargingRun } from './chargingRun';
import { callSize, type ChargeReport, type Reservation } from './rules';

export interface ChargingCall {
	body: IDataObject;
	/** Its worst case held, under the call's Idempotency-Key (the same for every attempt). */
	reservation: Reservation;
	/** The input item named in its errors. */
	itemIndex?: number;
	/** The ids an answer must have an entry for (a call whose answer mirrors its request). */
	ids?: string[];
	/** Whether it asks again for ids an earlier answer left out (asked for twice at most). */
	askedAgain?: boolean;
	/** How often the node sent it (each send with the transport's own retries). */
	sends?: number;
}

export interface ChargingOperation<A extends ChargeReport> {
	path: string;
	schema: ZodType<A, ZodTypeDef, unknown>;
	/** Whether the Idempotency-Key names the input item (a call per item), or only the body. */
	keyPerItem?: boolean;
	/** For an answer that mirrors its request: the ids its entries are for, and the body asking for some ids. */
	answeredIds?: (answer: A) => string[];
	bodyFor?: (ids: string[], itemIndex?: number) => IDataObject;
	/** What the operation does with each settled call (it may throw to stop the node). */
	onSettled: (settled: Settled<A>) => void;
}

export type Settled<A> =
	| { call: ChargingCall; answer: A }
	| { call: ChargingCall; failure: NodeApiError | NodeOperationError; lost: boolean };

export class ChargingCalls<A extends ChargeReport> {
	/** Calls sent (replays and asking again included). */
	sent = 0;
	private lost: ChargingCall[] = [];
	/** Calls lost again when replayed: their reservation is kept for the rest of the execution. */
	private stillLost: ChargingCall[] = [];

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly run: ChargingRun,
		private readonly operation: ChargingOperation<A>,
	) {}

	/** The call for this body with its worst case reserved; undefined when that does not fit. */
	callFor(
		body: IDataObject,
		worstCase: number,
		details: Pick<ChargingCall, 'itemIndex' | 'ids'> = {},
	): ChargingCall | undefined {
		const reservation = this.run.budget.reserve(worstCase, this.keyFor(body, details.itemIndex));
		return reservation && { body, reservation, ...details };
	}

	/**
	 * The next call of ids from the head of `queue` (an operation whose calls take ids): the largest
	 * one sent before in this execution (a replay, free or holding its lost reservation), else as
	 * many as the budget holds (What Fits). Undefined: none fits.
	 */
	nextIdsCall(queue: string[], limit: number, itemIndexOf: (id: string) => number | undefined) {
		const { budget, cost } = this.run;
		const size =
			this.replaySize(queue, limit) || callSize(limit, queue.length, budget.headroom, cost);
		if (size === 0) return undefined;
		const ids = queue.splice(0, size);
		budget.noteIdsCall(ids[0], size);
		const itemIndex = itemIndexOf(ids[0]);
		// A replay or a size the budget holds, reserved at once: never refused here.
		return this.callFor(this.operation.bodyFor!(ids, itemIndex), size * cost, { itemIndex, ids })!;
	}

	/** The ids of `queue` that calls sent before in this execution answer again: they need no room. */
	replayedIds(queue: string[], limit: number): string[] {
		const replayed: string[] = [];
		for (let next = 0; next < queue.length; ) {
			const size = this.replaySize(queue, limit, next);
			replayed.push(...queue.slice(next, next + size));
			next += size || Math.min(limit, queue.length - next);
		}
		return replayed;
	}

	/** Whether this body (of this item) was sent before in this execution: its replay needs no room. */
	sentBefore(body: IDataObject, itemIndex?: number): boolean {
		return this.run.budget.sentBefore(this.keyFor(body, itemIndex));
	}

	/** The size of the largest call from `queue[from]` sent before (0: none): a lookup by its first id. */
	private replaySize(queue: string[], limit: number, from = 0): number {
		const bodyFor = this.operation.bodyFor!;
		const room = Math.min(limit, queue.length - from);
		for (const size of this.run.budget.idsCallSizesFrom(queue[from]))
			if (size <= room && this.sentBefore(bodyFor(queue.slice(from, from + size)))) return size;
		return 0;
	}

	/** Every attempt of the same call carries the same key (naming its item where the operation's key does). */
	private keyFor(body: IDataObject, itemIndex?: number): string {
		const item = this.operation.keyPerItem ? itemIndex : undefined;
		return idempotencyKeyFor(this.context, this.operation.path, body, item);
	}

	get hasLost(): boolean {
		return this.lost.length > 0;
	}

	/** Sends a call and settles it: its answer, or its failure (a lost one waits for its replay). */
	async send(call: ChargingCall, replaying = false): Promise<void> {
		this.sent++;
		call.sends = (call.sends ?? 0) + 1;
		const { path, schema } = this.operation;
		const { budget } = this.run;
		let response;
		try {
			response = await (apiRequest<A>).call(this.context, {
				...{ method: 'POST', path, body: call.body, schema, fieldNames: editorFieldNames },
				...{ idempotencyKey: call.reservation.key, itemIndex: call.itemIndex },
			});
		} catch (error) {
			// Stop pressed: send nothing more (the call stays reserved: it may have been carried out).
			if (this.context.getExecutionCancelSignal()?.aborted)
				throw asNodeError(this.context, error, call.itemIndex);
			// A refusal of a replay says nothing of the earlier send whose answer was lost.
			const refused =
				certainlyNotCarriedOut(error) && call.sends === 1 && !call.reservation.sentBefore;
			if (refused) budget.release(call.reservation);
			const lost = !refused && failureOf(error)?.kind !== 'unreadableAnswer';
			if (lost) (replaying ? this.stillLost : this.lost).push(call);
			const failure = this.chargingFailure(call, error, refused);
			return this.operation.onSettled({ call, failure, lost });
		}
		const replayed = firstHeaderValue(response.headers, HEADERS.idempotentReplayed) === 'true';
		const charged = budget.settle(call.reservation, response.body, replayed);
		this.operation.onSettled({ call, answer: response.body });
		await this.checkMirrored(call, response.body, charged);
	}

	/** Replays every lost call once with its own key: the API answers with the first answer and its charge. */
	async replayLost(): Promise<void> {
		const lost = this.lost;
		this.lost = [];
		for (const call of lost) await this.send(call, true);
	}

	/** The end of the run: calls still lost keep their reservation for the same call later in the execution. */
	finish(): void {
		for (const call of [...this.lost, ...this.stillLost])
			this.run.budget.holdForReplay(call.reservation);
	}

	/**
	 * A failed call's error, written once: what happened, what the call may have charged, and what
	 * the run's earlier calls charged (a model reads only the message).
	 */
	private chargingFailure(call: ChargingCall, error: unknown, refused: boolean): NodeApiError {
		// The error as the transport wrote it: the item is named once, when the operation raises it.
		const { message, description } = error as { message?: string; description?: string | null };
		const { kind = 'lostAnswer', apiCode } = failureOf(error) ?? {};
		// A refusal after an earlier send: that send may have been carried out, whatever this one met.
		const mayHaveCharged = !refused && certainlyNotCarriedOut(error);
		const status = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
		return apiFailure(this.context.getNode(), mayHaveCharged ? 'lostAnswer' : kind, {
			message: `${message ?? String(error)}. ${this.sentText(call, refused)}${this.chargedBeforeText()}`,
			description: mayHaveCharged
				? 'An earlier send of this call got no answer and may have been carried out. Check Credits → Get Balance before running it again.'
				: (description ?? undefined),
			status: Number.isInteger(status) ? status : undefined,
			apiCode,
			itemIndex: call.itemIndex,
		});
	}

	/** What a failed call sent, and what it may have charged, as it happened. */
	private sentText({ sends = 1, reservation, ids }: ChargingCall, refused: boolean): string {
		const named = ids && ids.length <= 3 ? contactsNamed(ids) : plural(ids?.length ?? 0, 'contact');
		const what = `${this.operation.path} ${ids ? `for ${named} ` : ''}`;
		if (refused) return `${what}was refused, so this call was not charged`;
		const times = sends === 1 ? 'once' : sends === 2 ? 'twice' : `${sends} times`;
		return `${what}was sent ${times} with the same Idempotency-Key and may have charged up to ${plural(reservation.credits, 'credit')} (counted against Max Credits until the API reports the charge); running the same contacts again returns them free`;
	}

	/** What the run's earlier calls charged, and where those contacts are. */
	private chargedBeforeText(): string {
		const charged = this.run.budget.chargedHere;
		if (charged === 0) return '';
		const where = this.context.continueOnFail()
			? 'those contacts are in the output'
			: 'run again and those contacts come back free';
		return `. This run's earlier calls charged ${plural(charged, 'credit')}: ${where}`;
	}

	/**
	 * An answer must have an entry for every id asked for. Ids left out are asked for again once (free
	 * if they were unlocked), with what the call's charge leaves of its worst case; left out again,
	 * each fails saying it may have been charged, and that stays held.
	 */
	private async checkMirrored(
		call: ChargingCall,
		answer: A,
		charged: number | undefined,
	): Promise<void> {
		const { answeredIds, bodyFor } = this.operation;
		if (!call.ids || !answeredIds || !bodyFor) return;
		const answered = new Set(answeredIds(answer));
		const missing = call.ids.filter((id) => !answered.has(id));
		if (missing.length === 0) return;
		const worstCase = Math.min(
			missing.length * this.run.cost,
			charged === undefined ? 0 : call.reservation.credits - charged,
		);
		if (call.askedAgain) {
			this.run.budget.reserve(worstCase);
			this.operation.onSettled({
				call: { ...call, ids: missing },
				failure: this.notAnswered(call, missing),
				lost: false,
			});
			return;
		}
		// The charge settled frees at least `worstCase`, so the call fits.
		const again = this.callFor(bodyFor(missing), worstCase, {
			itemIndex: call.itemIndex,
			ids: missing,
		})!;
		await this.send({ ...again, askedAgain: true });
	}

	private notAnswered({ itemIndex }: ChargingCall, missing: string[]): NodeApiError {
		const ids = missing.join(', ');
		const them = missing.length === 1 ? 'it' : 'them';
		return apiFailure(this.context.getNode(), 'notAnswered', {
			message: `The Contact Data API did not answer for ${contactsNamed(missing)}: it may have been charged`,
			description: `${this.operation.path} was asked for ${ids} twice, and its answer had no entry for ${them} either time. Its worst case stays counted against Max Credits. Check Credits → Get Balance, then run again: a contact already unlocked comes back free of charge.`,
			itemIndex,
		});
	}
}

/** "contact c_1" or "contacts c_1, c_2": the ids a message names. */
const contactsNamed = (ids: string[]): string =>
	`${ids.length === 1 ? 'contact' : 'contacts'} ${ids.join(', ')}`;
