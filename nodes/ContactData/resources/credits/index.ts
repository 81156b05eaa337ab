import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption, Operations } from '../../node.type';
import * as fileRefundClaim from './fileRefundClaim';
import * as getBalance from './getBalance';

export const creditsOperations: Operations<'credits'> = {
	getBalance: getBalance.execute,
	fileRefundClaim: fileRefundClaim.execute,
};

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['credits'] } },
	options: [
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
	] satisfies Array<OperationOption<'credits'>>,
	default: 'getBalance',
};

/** Each operation's parameters in the order of its panel, after the Operation parameter. */
export const creditsPanels: INodeProperties[][] = [getBalance, fileRefundClaim].map(
	({ description }) => [operation, ...description],
);
