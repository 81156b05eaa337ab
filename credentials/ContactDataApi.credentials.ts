import {
	UserError,
	type Icon,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IHttpRequestOptions,
	type INodeProperties,
} from 'n8n-workflow';

import {
	authorizationOf,
	DEFAULT_TIMEOUT_SECONDS,
} from '../nodes/ContactData/shared/client/apiCredential';
import { baseUrlProblem } from '../nodes/ContactData/shared/client/baseUrl';
import { API_PREFIX } from '../nodes/ContactData/shared/client/contract';

export class ContactDataApi implements ICredentialType {
	name = 'contactDataApi';

	displayName = 'Contact Data API';

	icon: Icon = {
		light: 'file:../icons/contactData.svg',
		dark: 'file:../icons/contactData.dark.svg',
	};

	documentationUrl =
		'https://github.com/contact-data/n8n-nodes-contact-data/blob/main/docs/node.md';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Generated in the Contact Data dashboard (Growth tier or higher)',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://api.contactdata.example',
			hint: `Your account’s API address, as shown in the Contact Data dashboard, without ${API_PREFIX}`,
			description:
				'Must start with https:// (plain http:// only for a server on the machine n8n runs on)',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_SECONDS,
			description:
				'How long a call to the API may wait for an answer. A call that gets none in time is not sent again, and the node says so.',
		},
	];

	/**
	 * Adds the key, but only for a Base URL the node would use. The nodes' `credentialTest` tests the
	 * credential (shared/client/credentialTest.ts): it words its outcome alike on n8n 1.x and 2.x.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const problem = baseUrlProblem(String(credentials.baseUrl ?? ''));
		if (problem !== undefined) throw new UserError(problem.whole);
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: authorizationOf(String(credentials.apiKey ?? '')),
			},
		};
	}
}
