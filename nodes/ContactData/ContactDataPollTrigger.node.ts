import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { searchSavedLists } from './listSearch/searchSavedLists';
import { CREDENTIAL_TEST, testContactDataApiCredential } from './shared/client/credentialTest';
import { pollTriggerProperties } from './pollTrigger/parameters';
import { pollWatchedLists } from './pollTrigger/poll';
import { eventsSubtitle } from './shared/parameters/subtitles';

export class ContactDataPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		// The nodes panel drops "Trigger" from the name of a trigger with several events: what is left reads
		// whole. `name` stays, so saved workflows keep working.
		displayName: 'Contact Data Job Change Check Trigger',
		name: 'contactDataPollTrigger',
		icon: {
			light: 'file:../../icons/contactData.svg',
			dark: 'file:../../icons/contactData.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle(pollTriggerProperties),
		description:
			'Starts the workflow when a contact on a watched saved list changes job or role, by checking the lists on a schedule (no public URL needed)',
		defaults: { name: 'Contact Data Job Change Check' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// Literals, as n8n's lint reads them; a test holds them to CREDENTIAL_NAME and CREDENTIAL_TEST.
		credentials: [{ name: 'contactDataApi', required: true, testedBy: 'contactDataApiTest' }],
		properties: pollTriggerProperties,
	};

	methods = {
		listSearch: { searchSavedLists },
		credentialTest: { [CREDENTIAL_TEST]: testContactDataApiCredential },
	};

	poll = pollWatchedLists;
}
