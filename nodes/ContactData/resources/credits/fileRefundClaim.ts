import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	ID_PREFIXES,
	PATHS,
	REFUND_REASONS,
	refundRequestSchema,
	refundSchema,
} from '../../shared/client/contract';
import { optionParameter } from '../../shared/parameters/descriptions';
import { forEachItem, type OperationExecute } from '../../shared/items/items';
import { editorFieldNames } from '../../shared/parameters/fieldNames';
import { apiRequest } from '../../shared/client/transport';
import { checkBody, textOf } from '../../shared/parameters/values';

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
		displayOptions: showFor,
		description: `The unlocked contact (${ID_PREFIXES.contact}…) whose data was wrong`,
	},
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

export const execute: OperationExecute = async function (items) {
	return await forEachItem(this, items, async (itemIndex) => {
		const where = { context: this, itemIndex };
		const note = textOf(where, 'Note', this.getNodeParameter('note', itemIndex, ''));
		const contactId = textOf(
			where,
			'Contact ID',
			this.getNodeParameter('contactId', itemIndex, ''),
		);
		const reason = optionParameter(
			this,
			'reason',
			'Reason',
			itemIndex,
			REASON_CHOICES,
			'bounced_email',
		);
		const body = checkBody(
			this,
			refundRequestSchema,
			{ contact_id: contactId, reason, ...(note ? { note } : {}) },
			itemIndex,
			{ contact_id: 'Contact ID', reason: 'Reason', note: 'Note' },
		);
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
