/** `POST|GET /v1/webhooks` and `DELETE /v1/webhooks/:id`. */
import {
	PATH_TEMPLATES,
	createWebhookRequestSchema,
} from '../../nodes/ContactData/shared/client/contract';
import { asObject, invalidRequest, notFound, parseWith, type Answer } from '../http.cjs';
import type { RequestContext, Route } from '../router.cjs';
import { isAcceptableWebhookUrl, publicSubscription } from '../webhooks.cjs';

async function createWebhook(ctx: RequestContext): Promise<Answer> {
	const { state, account } = ctx;
	const request = parseWith(createWebhookRequestSchema, asObject(await ctx.body()));
	if (!isAcceptableWebhookUrl(request.url)) {
		throw invalidRequest('url', 'must be an https:// URL (http:// only to a loopback address)');
	}
	const listIds = request.list_ids ?? null;
	const unknown = (listIds ?? []).filter((id) => !account.lists.get(id));
	if (unknown.length > 0)
		throw notFound(`unknown saved lists: ${unknown.join(', ')}`, {
			field: 'list_ids',
			ids: unknown,
		});
	const subscription = account.webhooks.create(
		request.url,
		request.events,
		listIds,
		state.clock.iso(),
	);
	return { status: 201, body: publicSubscription(subscription, true) };
}

async function getWebhooks(ctx: RequestContext): Promise<Answer> {
	return {
		status: 200,
		body: {
			webhooks: ctx.account.webhooks
				.all()
				.map((subscription) => publicSubscription(subscription, false)),
		},
	};
}

async function deleteWebhook(ctx: RequestContext): Promise<Answer> {
	if (!ctx.account.webhooks.delete(ctx.params.id))
		throw notFound(`no webhook has the id ${ctx.params.id}`, { id: ctx.params.id });
	return { status: 204 };
}

export const webhookRoutes: Route[] = [
	{ method: 'POST', template: PATH_TEMPLATES.webhooks, handler: createWebhook },
	{ method: 'GET', template: PATH_TEMPLATES.webhooks, handler: getWebhooks },
	{ method: 'DELETE', template: PATH_TEMPLATES.webhook, handler: deleteWebhook },
];
