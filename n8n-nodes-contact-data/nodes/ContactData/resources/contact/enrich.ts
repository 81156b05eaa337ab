import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { CreditBudget } from '../../shared/budget';
import {
	CREDIT_COST,
	PATHS,
	enrichRequestSchema,
	enrichResponseSchema,
	type EnrichResponse,
} from '../../shared/contract';
import {
	booleanParameter,
	levelOf,
	levelParameter,
	maxCreditsOf,
	maxCreditsParameter,
} from '../../shared/descriptions';
import { asNodeError, forEachItem } from '../../shared/items';
import { apiRequest } from '../../shared/transport';
import { checkBody, textOf } from '../../shared/values';

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
	const budget = new CreditBudget(this.getNode(), maxCreditsOf(this, 0));
	return await forEachItem(this, items, async (itemIndex) => {
		const where = { node: this.getNode(), itemIndex };
		const email = textOf(where, 'Email', this.getNodeParameter('email', itemIndex, ''));
		const linkedinUrl = textOf(where, 'LinkedIn URL', this.getNodeParameter('linkedinUrl', itemIndex, ''));
		const level = levelOf(this, itemIndex);
		const outputNoMatch = booleanParameter(this, 'options.outputNoMatch', 'Output No-Match Items', itemIndex);

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
			const contact = answer.contact as IDataObject;
			return outputNoMatch ? { matched: true, ...contact } : contact;
		} catch (error) {
			if (error instanceof NodeApiError && error.httpCode === '404') {
				if (outputNoMatch) return { matched: false, email: email || null, linkedin_url: linkedinUrl || null };
				throw new NodeApiError(this.getNode(), { code: 'not_found' }, {
					message: `No contact matches ${email ? `the email "${email}"` : `the LinkedIn URL "${linkedinUrl}"`}`,
					description:
						'Nothing was charged. To get an item with "matched": false instead of an error (and branch on it with an IF node), turn on Options → Output No-Match Items.',
					httpCode: '404',
					itemIndex,
				});
			}
			throw asNodeError(this, error, itemIndex);
		}
	});
}
