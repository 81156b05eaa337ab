import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { searchSavedLists } from './listSearch/searchSavedLists';
import { contactDescription } from './resources/contact';
import { creditsDescription } from './resources/credits';
import { savedListDescription } from './resources/savedList';
import type { Resource } from './node.type';
import { router } from './router';
import { CREDENTIAL_NAME } from './shared/client/apiCredential';

export class ContactData implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Contact Data',
		name: 'contactData',
		icon: { light: 'file:../../icons/contactData.svg', dark: 'file:../../icons/contactData.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Search, unlock and enrich B2B contacts within a credit budget, manage and export saved lists, check credits; with the Contact Data Trigger, act on job changes, role changes and intent',
		defaults: { name: 'Contact Data' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_NAME, required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Contact', value: 'contact' },
					{ name: 'Credit', value: 'credits' },
					{ name: 'Saved List', value: 'savedList' },
				] satisfies Array<INodePropertyOptions & { value: Resource }>,
				default: 'contact',
			},
			...contactDescription,
			...savedListDescription,
			...creditsDescription,
		],
	};

	methods = {
		listSearch: { searchSavedLists },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
