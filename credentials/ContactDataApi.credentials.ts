import {
	UserError,
	type Icon,
	type ICredentialDataDecryptedObject,
	type ICredentialTestRequest,
	type ICredentialType,
	type IHttpRequestOptions,
	type INodeProperties,
} from 'n8n-workflow';

import { baseUrlProblem, CHECKED_BASE_URL } from '../nodes/ContactData/shared/client/baseUrl';
import { API_PREFIX, PATHS } from '../nodes/ContactData/shared/client/contract';
import { DEFAULT_TIMEOUT_SECONDS } from '../nodes/ContactData/shared/client/credentialDefaults';

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
			placeholder: 'https://api.contactdata.example',
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
				'How long a call to the API may wait for an answer. A call that gets none fails with an error and is not sent again.',
		},
	];

	/**
	 * Adds the key, but only for a Base URL the node would use. Refusing here is also what lets the
	 * credential test explain a malformed Base URL: for a request that fails, n8n's tester shows only
	 * its code (ERR_INVALID_URL), while an error raised before sending is shown with its message.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const problem = baseUrlProblem(String(credentials.baseUrl ?? ''));
		if (problem !== undefined) throw new UserError(problem);
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.apiKey ?? '')}`,
			},
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: CHECKED_BASE_URL,
			url: PATHS.creditsBalance,
			method: 'GET',
			// The API never redirects: a Base URL that does is not followed, so the key stays with it.
			disableFollowRedirect: true,
		},
		rules: [
			...[301, 302, 303, 307, 308].map((value) => ({
				type: 'responseCode' as const,
				properties: {
					value,
					message:
						'The Base URL redirects to another address. The key was not sent there: enter the API’s own address as the Base URL.',
				},
			})),
			{
				type: 'responseCode',
				properties: { value: 401, message: 'The API key was refused: it is unknown or revoked' },
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API key works, but its account is below the Growth tier, which the API requires',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: `This address does not look like the Contact Data API (it has no ${PATHS.creditsBalance}): check the Base URL`,
				},
			},
		],
	};
}
