import {
	NodeConnectionTypes,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { searchSavedLists } from '../ContactData/listSearch/searchSavedLists';
import { HEADERS } from '../ContactData/shared/contract';
import { eventItem, ignoreReason, parseDelivery } from './delivery';
import { readDeliveryOptions, readSubscriptionSpec, triggerProperties } from './parameters';
import { verifyDeliverySignature } from './signature';
import { readHeldSubscription, rememberAcceptedEvent, wasEventAccepted } from './state';
import { adoptExistingSubscription, createSubscription, deleteSubscription } from './subscription';

function headerValue(headers: IDataObject, name: string): string | undefined {
	const value = headers[name];
	return typeof value === 'string' ? value : undefined;
}

export class ContactDataTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Contact Data Trigger',
		name: 'contactDataTrigger',
		icon: { light: 'file:../../icons/contactData.svg', dark: 'file:../../icons/contactData.dark.svg' },
		group: ['trigger'],
		version: 1,
		// "On job change, role change" rather than the raw event types.
		subtitle: '={{ "On " + $parameter["events"].join(", ").replace("job_change", "job change").replace("role_change", "role change") }}',
		description: 'Starts the workflow when a watched contact changes job or role, or shows intent',
		defaults: { name: 'Contact Data Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'contactDataApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		// n8n's default test-listen text ("Go to Contact Data and create an event") names nothing a user can do.
		triggerPanel: {
			header: 'Waiting for an event from Contact Data',
			executionsHelp: {
				inactive:
					'While this node listens, the next event on a watched saved list (a contact changes job or role, or shows intent) runs the workflow once. Events come from the service as contacts change; with the Contact Data sandbox you make one happen: run "npm run sandbox:event" in the playground (or "npm run sandbox:event -- role_change"). Publish the workflow to run it on every event.',
				active:
					'The workflow is published: every event on a watched saved list runs it, and its executions are listed under Executions. With the Contact Data sandbox, "npm run sandbox:event" makes one happen.',
			},
			activationHint:
				'Publish the workflow to run it on every event; while it is unpublished, "Listen for test event" waits for one.',
		},
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchSavedLists },
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await adoptExistingSubscription.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await createSubscription.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteSubscription.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const headers = this.getHeaderData() as IDataObject;
		const staticData = this.getWorkflowStaticData('node');
		if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
			await request.readRawBody();
		}
		const rawBody = request.rawBody as Buffer | undefined;
		const eventId = headerValue(headers, HEADERS.webhookId);

		// Nothing is read from the body until its signature is known to be the service's.
		const held = readHeldSubscription(staticData);
		const verdict = verifyDeliverySignature(
			held?.secret,
			{
				id: eventId,
				timestamp: headerValue(headers, HEADERS.webhookTimestamp),
				signature: headerValue(headers, HEADERS.webhookSignature),
				rawBody,
			},
			Math.floor(Date.now() / 1000),
		);
		if (!verdict.valid || !held || eventId === undefined || rawBody === undefined) {
			this.getResponseObject()
				.status(401)
				.json({ message: `Unauthorized: ${verdict.valid ? 'missing_headers' : verdict.reason}` });
			return { noWebhookResponse: true };
		}

		const delivery = parseDelivery(rawBody, eventId);
		if ('problem' in delivery) {
			this.getResponseObject().status(400).json({ message: `Bad request: ${delivery.problem}` });
			return { noWebhookResponse: true };
		}

		// A retried delivery of an event that already started the workflow.
		if (wasEventAccepted(staticData, held.id, eventId)) {
			return { webhookResponse: { received: true, duplicate: true, event_id: eventId } };
		}

		const options = readDeliveryOptions.call(this);
		const ignored = ignoreReason(delivery.event, readSubscriptionSpec.call(this), options);
		if (ignored !== undefined) {
			return { webhookResponse: { received: true, ignored, event_id: eventId } };
		}

		rememberAcceptedEvent(staticData, held.id, eventId);
		return {
			workflowData: [[{ json: eventItem(delivery.event, delivery.json, options.simplify) }]],
		};
	}
}
