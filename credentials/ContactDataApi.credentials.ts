import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { CHECKED_BASE_URL } from '../nodes/ContactData/shared/baseUrl';

export class ContactDataApi implements ICredentialType {
	name = 'contactDataApi';

	displayName = 'Contact Data API';

	icon: Icon = { light: 'file:../icons/contactData.svg', dark: 'file:../icons/contactData.dark.svg' };

	documentationUrl = 'https://github.com/contact-data/n8n-nodes-contact-data/blob/main/docs/node.md';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Generated in the service dashboard (Growth tier or higher). For the local sandbox use sk_sandbox_growth.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:4010',
			placeholder: 'https://api.contactdata.example',
			hint: 'The default is the local sandbox (npm run sandbox), so you can try the node without an account. Use your account’s https:// address for real data; plain http:// is refused except on this machine (localhost, 127.x.x.x, [::1]).',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: CHECKED_BASE_URL,
			url: '/v1/credits/balance',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: { value: 401, message: 'The API key was refused: it is unknown or revoked' },
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The API key works, but its account is below the Growth tier, which the API requires',
				},
			},
		],
	};
}
