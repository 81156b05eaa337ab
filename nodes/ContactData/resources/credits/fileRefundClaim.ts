import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	ID_PREFIXES,
	PATHS,
	REFUND_REASONS,
	refundRequestSchema,
	refundSchema,
} from '../../shared/client/contract';
import { optionParameter } from '../../shared/parameters/descriptions';
import type { OperationExecute } from '../../shared/items/items';
import { contactIdsReader, readEveryItemFirst } from '../../shared/items/perItemReaders';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { CONTACT_ID, contactIdParameters } from '../../shared/parameters/perItemParameters';
import { apiRequest } from '../../shared/client/transport';
import { CONTACT_ID_EXAMPLE, checkBody, refused, textOf } from '../../shared/parameters/values';
import { BEFORE_VERSION_2_2, fromVersion2_2, shownWhen } from '../../shared/parameters/versions';

const showFor = { show: { resource: ['credits'], operation: ['fileRefundClaim'] } };

const REASON_NAMES: Record<(typeof REFUND_REASONS)[number], string> = {
	bounced_email: 'Bounced Email',
	wrong_phone: 'Wrong Phone',
	wrong_title: 'Wrong Title',
};

const REASON_CHOICES = REFUND_REASONS.map((value) => ({ name: REASON_NAMES[value], value }));

export const description: INodeProperties[] = [
	{
		displayName: 'Contact ID',
		name: 'contactId',
		type: 'string',
		default: '={{ $json.id }}',
		required: true,
		displayOptions: shownWhen(showFor, BEFORE_VERSION_2_2),
		description: `The unlocked contact (${ID_PREFIXES.contact}…) whose data was wrong`,
	},
	...contactIdParameters(showFor),
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'options',
		required: true,
		default: 'bounced_email',
		displayOptions: showFor,
		options: REASON_CHOICES,
	},
	{
		displayName: 'Note',
		name: 'note',
		type: 'string',
		default: '',
		typeOptions: { rows: 2 },
		displayOptions: showFor,
		description: 'Optional details for the service (at most 2,000 characters)',
	},
];

/**
 * Each item's contact: from 2.2 read as Unlock reads its Contact IDs (one here), before it the
 * Contact ID parameter's value.
 */
function contactIdReader(context: IExecuteFunctions, items: INodeExecutionData[]) {
	if (!fromVersion2_2(context.getNode())) {
		return (itemIndex: number) =>
			textOf(
				{ context, itemIndex },
				'Contact ID',
				context.getNodeParameter('contactId', itemIndex, ''),
			);
	}
	const idsOf = contactIdsReader(context, items, CONTACT_ID);
	return (itemIndex: number) => {
		const ids = idsOf(itemIndex);
		if (ids.length === 1) return ids[0];
		const problem = `has ${ids.length} contact IDs: a claim is for one contact`;
		const expected = `give each contact its own item, e.g. {"id": "${CONTACT_ID_EXAMPLE}"}`;
		throw refused({ context, itemIndex }, 'Contact ID Field', ids, problem, expected);
	};
}

/** An item's claim as its parameters give it, checked before any claim is filed. */
function readClaim(
	context: IExecuteFunctions,
	contactIdOf: (itemIndex: number) => string,
	itemIndex: number,
) {
	const where = { context, itemIndex };
	const note = textOf(where, 'Note', context.getNodeParameter('note', itemIndex, ''));
	const contactId = contactIdOf(itemIndex);
	const reason = optionParameter(
		context,
		'reason',
		'Reason',
		itemIndex,
		REASON_CHOICES,
		'bounced_email',
	);
	return checkBody(
		context,
		refundRequestSchema,
		{ contact_id: contactId, reason, ...(note ? { note } : {}) },
		itemIndex,
		{ contact_id: 'Contact ID', reason: 'Reason', note: 'Note' },
	);
}

export const execute: OperationExecute = async function (items) {
	const contactIdOf = contactIdReader(this, items);
	const read = (itemIndex: number) => readClaim(this, contactIdOf, itemIndex);
	return await readEveryItemFirst(this, items, read, async (body, itemIndex) => {
		const { body: refund } = await apiRequest.call(this, {
			method: 'POST',
			path: PATHS.creditsRefund,
			fieldNames: editorFieldNames,
			body,
			// Not sent again after a lost answer: a second claim would be refused as a duplicate.
			safeToRetry: false,
			itemIndex,
			schema: refundSchema,
		});
		return refund as IDataObject;
	});
};
