/**
 * What an AI agent gets from a Contact tool call (version 2): one item, sized for a model's context,
 * with the contacts shaped, what could not be done apart, a search's next cursor, and the credits.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { creditBudgetOf } from '../budget/chargingRun';
import { isContactRecord } from '../budget/runOutput';
import { runsAsTool } from '../items/toolCall';
import { leftOf } from '../budget/ledger';
import { errorItem, pairedWith } from '../items/items';
import { optionParameter } from '../parameters/descriptions';
import { refused } from '../parameters/values';
import { fromVersion2, fromVersion2_1 } from '../parameters/versions';
import {
	SELECTABLE_FIELDS,
	TOOL_OUTPUT_CHOICES,
	agentContact,
	simplifiedContact,
} from '../items/simplify';

export function answersForAgent(context: IExecuteFunctions): boolean {
	return fromVersion2(context.getNode()) && runsAsTool(context);
}

/** Why an item is not a contact. */
const NOT_DONE_KEYS = [
	'id',
	'email',
	'linkedin_url',
	'matched',
	'unlock_skipped',
	'error',
	'description',
	'httpCode',
];

type Shape = (json: IDataObject) => IDataObject;
const raw: Shape = (json) => json;

/** Other resources and runs not for an agent: unchanged. Read first: a bad Output sends nothing. */
export function toolAnswer(
	context: IExecuteFunctions,
): (items: INodeExecutionData[]) => INodeExecutionData[] {
	if (context.getNodeParameter('resource', 0) !== 'contact' || !answersForAgent(context))
		return (items) => items;
	const operation = String(context.getNodeParameter('operation', 0));
	const shape = fromVersion2_1(context.getNode())
		? outputShapeOf(context)
		: context.getNodeParameter('simplify', 0, true) === true
			? agentContact
			: raw;
	return (items) => answerOf(context, items, ['unlock', 'enrich'].includes(operation), shape);
}

function outputShapeOf(context: IExecuteFunctions): Shape {
	const output = optionParameter(context, 'output', 'Output', 0, TOOL_OUTPUT_CHOICES, 'simplified');
	if (output === 'simplified') return simplifiedContact;
	if (output === 'raw') return raw;
	const fields: unknown = context.getNodeParameter('outputFields', 0, []);
	const known = new Set(SELECTABLE_FIELDS.map(({ value }) => value));
	if (!Array.isArray(fields) || !fields.every((field) => known.has(field)))
		throw refused(
			{ context, itemIndex: 0 },
			'Fields',
			fields,
			'is not a list of contact fields',
			`pick the fields from the list, e.g. ${SELECTABLE_FIELDS[0].value}`,
		);
	const keys = ['id', ...(fields as string[])];
	return (json) => pick(json, keys);
}

function pick(json: IDataObject, keys: string[]): IDataObject {
	return Object.fromEntries(
		keys.filter((key) => json[key] !== undefined).map((key) => [key, json[key]]),
	);
}

function answerOf(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	charging: boolean,
	shape: Shape,
): INodeExecutionData[] {
	const contacts: IDataObject[] = [];
	const notDone: IDataObject[] = [];
	const page: IDataObject = {};
	for (const { json } of items) {
		if (Array.isArray(json.contacts)) {
			// A search page: its contacts, and where the next page starts.
			contacts.push(...(json.contacts as IDataObject[]).map(shape));
			Object.assign(page, { next_cursor: json.next_cursor ?? null, total: json.total });
		} else if (isContactRecord(json)) contacts.push(shape(json));
		else notDone.push(pick(json, NOT_DONE_KEYS));
	}
	const json: IDataObject = {
		contacts,
		...(notDone.length ? { not_done: notDone } : {}),
		...page,
		credits: creditsOf(context, charging),
	};
	return [{ json, pairedItem: everyInput(context) }];
}

const everyInput = (context: IExecuteFunctions) =>
	pairedWith(context.getInputData().map((_, itemIndex) => itemIndex));

/** As Continue On Fail's item: thrown, n8n 1.x would end the agent's run, 2.x drop the remedy. */
export function toolFailure(
	context: IExecuteFunctions,
	failure: NodeApiError | NodeOperationError,
): INodeExecutionData[] {
	return [errorItem(failure, everyInput(context))];
}

/** Beside what is left of a cap over time: its worst cases held for calls not settled (lost answers). */
const HELD_FIELDS = { left_today: 'held_today', left_in_session: 'held_in_session' };

/** The execution's tool calls share Max Credits; a search is free (its budget spends nothing). */
function creditsOf(context: IExecuteFunctions, charging: boolean): IDataObject {
	const budget = creditBudgetOf(context);
	const capsOverTime = charging ? budget.caps.filter((cap) => cap.leftField) : [];
	// What is held is said apart from 2.1 on: versions 1 and 2 keep their answers as they were.
	const withHeld = fromVersion2_1(context.getNode());
	return {
		spent_by_this_call: budget.run.charged,
		spent_in_run: budget.caps[0].tally.charged,
		max_credits: charging ? budget.maxCredits : null,
		left: charging ? budget.headroom : null,
		replayed: budget.replayedHere,
		...Object.fromEntries(
			capsOverTime.flatMap((cap) => [
				[cap.leftField, leftOf(cap)],
				...(withHeld ? [[HELD_FIELDS[cap.leftField!], cap.tally.reserved]] : []),
			]),
		),
	};
}
