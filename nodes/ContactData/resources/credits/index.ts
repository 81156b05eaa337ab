import type { INodeProperties } from 'n8n-workflow';

import { panelsOf, type Operations } from '../../node.type';
import * as fileRefundClaim from './fileRefundClaim';
import * as getBalance from './getBalance';

export const creditsOperations: Operations<'credits'> = { getBalance, fileRefundClaim };

export const creditsPanels: INodeProperties[][] = panelsOf(
	'credits',
	creditsOperations,
	[
		{
			name: 'File Refund Claim',
			value: 'fileRefundClaim',
			action: 'File credit refund claim',
			description:
				'Claim credits back for a contact with a bounced email, wrong phone or wrong title',
		},
		{
			name: 'Get Balance',
			value: 'getBalance',
			action: 'Get credit balance',
			description: 'Retrieve the credit balance, tier, recent usage and refunds',
		},
	],
	'getBalance',
);
