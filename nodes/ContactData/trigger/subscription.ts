/**
 * The trigger's subscription at the service, kept in step with the workflow's activation, and held
 * in the node's static data (saved with the workflow, so it survives restarts). Nothing else is
 * kept there: n8n 2.41 does not save static data changed by a webhook call that starts an
 * execution, and concurrent executions overwrite each other's.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
} from 'n8n-workflow';

import { isAllowedBaseUrl } from '../shared/client/baseUrl';
import { failureOf, OperationError } from '../shared/client/failures';
import {
	PATHS,
	webhookSchema,
	webhooksPageSchema,
	type CreateWebhookRequest,
	type Webhook,
	type WebhooksPage,
} from '../shared/client/contract';
import { apiRequest } from '../shared/client/transport';
import { matchesSpec, readSubscriptionSpec } from './parameters';

/** The id of the subscription this node last held, even when its secret is missing. */
function readHeldSubscriptionId(staticData: IDataObject): string | undefined {
	const id = staticData.subscriptionId;
	return typeof id === 'string' && id ? id : undefined;
}

/** The subscription held with its secret, without which no delivery can be verified. */
export function readHeldSubscription(staticData: IDataObject) {
	const id = readHeldSubscriptionId(staticData);
	const secret = staticData.subscriptionSecret;
	return id && typeof secret === 'string' && secret ? { id, secret } : undefined;
}

function forgetSubscription(staticData: IDataObject): void {
	delete staticData.subscriptionId;
	delete staticData.subscriptionSecret;
	delete staticData.subscriptionUrl;
}

function webhookUrlOf(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) throw new OperationError(context, 'n8n gave this trigger no webhook URL');
	return url;
}

/** Deletes a subscription; one that is already gone counts as deleted. */
async function deleteRemote(
	context: IHookFunctions,
	subscriptionId: string,
): Promise<'deleted' | 'gone'> {
	try {
		await apiRequest.call(context, { method: 'DELETE', path: PATHS.webhook(subscriptionId) });
		return 'deleted';
	} catch (error) {
		if (failureOf(error)?.kind === 'noMatch') return 'gone';
		// Any other failure surfaces; the transport already made it a NodeApiError naming the cause.
		throw error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error as Error);
	}
}

async function subscriptionsAt(context: IHookFunctions, url: string): Promise<Webhook[]> {
	const { body } = await (apiRequest<WebhooksPage>).call(context, {
		method: 'GET',
		path: PATHS.webhooks,
		schema: webhooksPageSchema,
	});
	return body.webhooks.filter((webhook) => webhook.url === url);
}

/**
 * `checkExists`: adopts the subscription this node holds when the service still has it for this
 * URL, events and lists, so a restart never duplicates it. Any other subscription to the URL is
 * deleted: its deliveries could not be verified or are no longer asked for, and `create` follows.
 */
export async function adoptExistingSubscription(this: IHookFunctions): Promise<boolean> {
	const spec = readSubscriptionSpec.call(this);
	const url = webhookUrlOf(this);
	const staticData = this.getWorkflowStaticData('node');
	const held = readHeldSubscription(staticData);

	let adopted = false;
	for (const subscription of await subscriptionsAt(this, url)) {
		if (!adopted && held?.id === subscription.id && matchesSpec(subscription, spec)) {
			adopted = true;
			continue;
		}
		await deleteRemote(this, subscription.id);
		this.logger.info(
			`Contact Data Trigger: removed subscription ${subscription.id} for ${url}: ${
				held?.id === subscription.id
					? 'it was for other events or saved lists'
					: 'its signing secret is not held by this workflow, so its deliveries could not be verified'
			}. A new subscription replaces it; no event is lost.`,
		);
	}
	if (!adopted) forgetSubscription(staticData);
	return adopted;
}

/** `create`: subscribes this webhook URL and keeps the subscription's id and secret. */
export async function createSubscription(this: IHookFunctions): Promise<boolean> {
	const spec = readSubscriptionSpec.call(this);
	const url = webhookUrlOf(this);
	if (!isAllowedBaseUrl(url)) {
		throw new OperationError(this, `The service cannot deliver events to ${url}`, {
			description:
				'It delivers only to https:// addresses (plain http:// only to this machine, for the local sandbox). Set n8n’s WEBHOOK_URL to a public https:// address, for example through a tunnel.',
		});
	}
	const { body: created } = await (apiRequest<Webhook>).call(this, {
		method: 'POST',
		path: PATHS.webhooks,
		body: { url, events: spec.events, list_ids: spec.listIds } satisfies CreateWebhookRequest,
		schema: webhookSchema,
	});
	if (!created.secret) {
		// Without the secret no delivery could be verified: remove it rather than keep a useless one.
		await deleteRemote(this, created.id);
		throw new OperationError(
			this,
			'The service created the subscription without a signing secret',
			{ description: 'It was deleted again. Try activating the workflow once more.' },
		);
	}
	Object.assign(this.getWorkflowStaticData('node'), {
		subscriptionId: created.id,
		subscriptionSecret: created.secret,
		subscriptionUrl: url,
	});
	return true;
}

/**
 * `delete`: removes the subscription this node holds (a failure keeps its id for the next try), or,
 * when that was lost, every subscription to this URL, so none delivers to a workflow not listening.
 */
export async function deleteSubscription(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const heldId = readHeldSubscriptionId(staticData);
	const ids =
		heldId !== undefined
			? [heldId]
			: (await subscriptionsAt(this, webhookUrlOf(this))).map((subscription) => subscription.id);
	for (const id of ids) {
		if ((await deleteRemote(this, id)) === 'gone') {
			this.logger.info(`Contact Data Trigger: subscription ${id} was already gone at the service.`);
		}
	}
	forgetSubscription(staticData);
	return true;
}
