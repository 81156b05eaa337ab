/** `GET /v1/credits/balance` and `POST /v1/credits/refund`. */
import {
	PATH_TEMPLATES,
	refundRequestSchema,
} from '../../nodes/ContactData/shared/client/contract';
import { apiError, asObject, notFound, parseWith, type Answer } from '../http.cjs';
import type { RequestContext, Route } from '../router.cjs';

async function balance(ctx: RequestContext): Promise<Answer> {
	const { ledger } = ctx.account;
	return { status: 200, body: { balance: ledger.balance, tier: ledger.tier, ...ledger.history() } };
}

async function refund(ctx: RequestContext): Promise<Answer> {
	const { state, account } = ctx;
	const request = parseWith(refundRequestSchema, asObject(await ctx.body()));
	const index = state.ds.indexOf(request.contact_id);
	const outcome =
		index < 0
			? ({ kind: 'not_unlocked' } as const)
			: account.ledger.refund(index, request.contact_id, request.reason, state.clock.iso());
	if (outcome.kind === 'not_unlocked') {
		throw notFound(`the account never unlocked ${request.contact_id}`, {
			contact_id: request.contact_id,
		});
	}
	if (outcome.kind === 'duplicate') {
		throw apiError(
			'conflict',
			`a ${request.reason} claim for ${request.contact_id} exists already`,
			{
				contact_id: request.contact_id,
				reason: request.reason,
			},
		);
	}
	return { status: 201, body: outcome.refund };
}

export const creditRoutes: Route[] = [
	{ method: 'GET', template: PATH_TEMPLATES.creditsBalance, handler: balance },
	{ method: 'POST', template: PATH_TEMPLATES.creditsRefund, handler: refund },
];
