import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { searchSavedLists } from './listSearch/searchSavedLists';
import { CREDENTIAL_TEST, testContactDataApiCredential } from './shared/client/credentialTest';
import { eventItem } from './shared/items/eventItem';
import { eventsSubtitle } from './shared/parameters/subtitles';
import { acceptedEvents } from './trigger/acceptedEvents';
import { ignoreReason, parseDelivery } from './trigger/delivery';
import { readSubscriptionSpec, toDeliveryOptions, triggerProperties } from './trigger/parameters';
import { firstDeliveries } from './trigger/processedEvents';
import { readVerifiedDelivery } from './trigger/signature';
import {
	adoptExistingSubscription,
	createSubscription,
	deleteSubscription,
} from './trigger/subscription';

export class ContactDataTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Contact Data Trigger',
		name: 'contactDataTrigger',
		icon: {
			light: 'file:../../icons/contactData.svg',
			dark: 'file:../../icons/contactData.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle(triggerProperties),
		// n8n's nodes panel shows this trigger and the action node as one entry, "Contact Data", with the
		// trigger's description above the actions and the triggers: so it describes them all.
		description:
			'Search, unlock and enrich B2B contacts within a credit budget, manage saved lists, check credits, and start workflows on job changes, role changes and intent',
		defaults: { name: 'Contact Data Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// Literals, as n8n's lint reads them; a test holds them to CREDENTIAL_NAME and CREDENTIAL_TEST.
		credentials: [{ name: 'contactDataApi', required: true, testedBy: 'contactDataApiTest' }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty, so n8n answers with the node's acknowledgement; by default it sends the text "firstEntryJson".
				responseData: '',
				path: 'webhook',
			},
		],
		// n8n's default test-listen text ("Go to Contact Data and create an event") names nothing a user can do.
		// The same texts show on every n8n line, so they name no control one line lacks: 2.x publishes a
		// workflow, 1.x has an Active toggle; the test button reads "Execute step" on both (the journey checks).
		triggerPanel: {
			header: 'Waiting for an event from Contact Data',
			executionsHelp: {
				inactive:
					// What makes an event and why it may take days: docs/trigger.md, "Trying it out".
					'Contact Data sends an event when watched contacts change job or title, or a company shows intent, often days apart. To build now, pin sample data, or test the Contact Data Job Change Check.',
				active:
					'The workflow runs in production: every job change, role change or intent signal on a watched saved list runs it once, and its executions are listed under Executions.',
			},
			activationHint:
				'Once the workflow runs in production, every event starts it. Until then, "Execute step" waits for one test event.',
		},
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchSavedLists },
		credentialTest: { [CREDENTIAL_TEST]: testContactDataApiCredential },
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
		const verified = await readVerifiedDelivery.call(this);
		if (!verified) return { noWebhookResponse: true };
		const { held, eventId, timestamp, rawBody, nowMs } = verified;

		// Every answer but a refusal is 2xx, or the service would retry a delivery never to be run.
		const answer = (more: IDataObject) => ({
			webhookResponse: { received: true, ...more, event_id: eventId },
		});
		const delivery = parseDelivery(rawBody, eventId);
		if ('problem' in delivery) {
			this.getResponseObject()
				.status(400)
				.json({ message: `Bad request: ${delivery.problem}` });
			return { noWebhookResponse: true };
		}
		if ('ignored' in delivery) return answer({ ignored: delivery.ignored });

		// A retried or replayed delivery of an event this process already accepted. Copies reaching
		// another process are dropped by execute(), in the execution they start.
		if (acceptedEvents.wasAccepted(held.id, eventId, nowMs)) return answer({ duplicate: true });

		const options = toDeliveryOptions(this.getNodeParameter('options', {}));
		const spec = readSubscriptionSpec.call(this);
		const ignored = ignoreReason(delivery.event, spec, options.minIntentScore);
		if (ignored !== undefined) return answer({ ignored });

		acceptedEvents.accept(held.id, eventId, Number(timestamp) * 1000, nowMs);
		return {
			...answer({}),
			workflowData: [[{ json: eventItem(delivery.event, options.simplify, delivery.json) }]],
		};
	}

	/** The start of every execution a delivery starts: drops an event another execution already passed on. */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { simplify } = toDeliveryOptions(this.getNodeParameter('options', 0, {}));
		const events = this.getInputData();
		try {
			return [await firstDeliveries.call(this, events, simplify)];
		} catch (error) {
			// n8n's record of processed events failed: with Continue On Fail each event still goes on,
			// with the error beside it (it may be a copy another execution passes on too).
			if (!this.continueOnFail()) throw new NodeOperationError(this.getNode(), error as Error);
			return [
				events.map((event, item) => ({
					json: { ...event.json, error: (error as Error).message },
					pairedItem: { item },
				})),
			];
		}
	}
}
