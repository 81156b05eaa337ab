/**
 * What Unlock and Enrich give the charging loop (their request for a set of units, and how to read
 * an answer), and what one run's charging holds while the loop sends its calls.
 */
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import type { UnlockLevel } from '../client/contract';
import type { ChargingRun } from './chargingRun';
import type { ChargeReport } from './ledger';

/** What an operation gives the loop: its request for a set of units, and how to read an answer. */
export interface ChargingOperation<A extends ChargeReport> {
	path: string;
	schema: ZodType<A, ZodTypeDef, unknown>;
	/** The most units one call asks for. */
	unitsPerCall: number;
	/** Units are contact ids (Unlock), named in errors; else people (Enrich). */
	contacts: boolean;
	bodyOf(units: string[], level: UnlockLevel): IDataObject;
	keyOf(body: IDataObject): string;
	/** Each unit the answer gives: its outcome, rank held at, failure of its items (AnsweredUnit). */
	read(answer: A, units: string[]): Map<string, AnsweredUnit>;
	/** What a failed call gives a unit (Enrich: a no-match item), else the failure itself. */
	failedAs?(failure: NodeApiError, unit: string): IDataObject | Error;
	/** The input item whose errors name a unit first. */
	itemOf(unit: string): number;
}

export interface Charging<A extends ChargeReport> {
	context: IExecuteFunctions;
	run: ChargingRun;
	op: ChargingOperation<A>;
	/** By unit: its answer, or its call's error. */
	outcomes: Map<string, IDataObject | Error>;
	/**
	 * What ended the new calls: a failed item without Continue On Fail, or a refused balance, which
	 * ends the calls the ledger knows too.
	 */
	stoppedBy?: Error;
	/** The units the run asks for (planOf): a replay's answer may fail one queued for later. */
	wanted?: ReadonlySet<string>;
}

/** Rank 0: not held. A failure: the answer fails its items (Unlock: an id the API does not know). */
export type AnsweredUnit = { outcome: IDataObject; rank: number; failure?: Error };
