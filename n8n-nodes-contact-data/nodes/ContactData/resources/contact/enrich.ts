import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { CreditBudget } from '../../shared/budget';
import { RunCharges } from '../../shared/charges';
import {
	CREDIT_COST,
	PATHS,
	enrichRequestSchema,
	enrichResponseSchema,
	type EnrichResponse,
	type UnlockLevel,
} from '../../shared/contract';
import { levelParameter, maxCreditsParameter } from '../../shared/descriptions';
import { asNodeError, forEachItem } from '../../shared/items';
import { simplifyOutput, simplifyParameters } from '../../shared/simplify';
import { apiRequest } from '../../shared/transport';
import { checkBody } from '../../shared/values';

const showFor = { show: { resource: ['contact'], operation: ['enrich'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		displayOptions: showFor,
		description:
			'The work email of the person to find. Give this, the LinkedIn URL, or both (the email wins when they point at different people).',
	},
	{
		displayName: 'LinkedIn URL',
		name: 'linkedinUrl',
		type: 'string',
		placeholder: 'https://www.linkedin.com/in/ada-lovelace',
		default: '',
		displayOptions: showFor,
		description: 'The person’s LinkedIn profile URL (https://www.linkedin.com/in/…)',
	},
	levelParameter(showFor),
	maxCreditsParameter(showFor),
	...simplifyParameters(showFor),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor,
		options: [
			{
				displayName: 'Output No-Match Items',
				name: 'outputNoMatch',
				type: 'boolean',
				default: false,
				description:
					'Whether a person the service does not know gives an output item with "matched": false (every found contact then carries "matched": true) instead of an error. Use an IF node on matched to branch.',
			},
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const budget = new CreditBudget(this.getNode(), this.getNodeParameter('maxCredits', 0, 100) as number);
	const charges = new RunCharges();
	const output = await forEachItem(this, items, async (itemIndex) => {
		const email = String(this.getNodeParameter('email', itemIndex, '') ?? '').trim();
		const linkedinUrl = String(this.getNodeParameter('linkedinUrl', itemIndex, '') ?? '').trim();
		const level = this.getNodeParameter('level', itemIndex, 'basic') as UnlockLevel;
		const outputNoMatch = this.getNodeParameter('options.outputNoMatch', itemIndex, false) as boolean;

		const body = checkBody(
			this,
			enrichRequestSchema,
			{ ...(email ? { email } : {}), ...(linkedinUrl ? { linkedin_url: linkedinUrl } : {}), level },
			itemIndex,
			{ email: 'Email', linkedin_url: 'LinkedIn URL', level: 'Level' },
		);
		budget.reserve(CREDIT_COST[level], 'enriching this item', itemIndex);
		try {
			const { body: answer } = await (apiRequest<EnrichResponse>).call(this, {
				method: 'POST',
				path: PATHS.enrich,
				body: body as IDataObject,
				// Sending it again is free: a contact already held is returned again without charge.
				safeToRetry: true,
				itemIndex,
				schema: enrichResponseSchema,
			});
			budget.charge(answer.credits_charged);
			charges.note(answer);
			const contact = answer.contact as IDataObject;
			return outputNoMatch ? { matched: true, ...contact } : contact;
		} catch (error) {
			if (outputNoMatch && error instanceof NodeApiError && error.httpCode === '404') {
				return {
					matched: false,
					email: email || null,
					linkedin_url: linkedinUrl || null,
				};
			}
			throw asNodeError(this, error, itemIndex);
		}
	});
	return simplifyOutput(this, charges.onItems(output));
}
