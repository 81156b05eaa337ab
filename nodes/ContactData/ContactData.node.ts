import {
	NodeConnectionTypes,
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { searchSavedLists } from './listSearch/searchSavedLists';
import { contactDescription, contactOperations } from './resources/contact';
import { creditsDescription, creditsOperations } from './resources/credits';
import { savedListDescription, savedListOperations } from './resources/savedList';
import { toolAnswer } from './shared/agent/toolAnswer';
import { CREDENTIAL_NAME } from './shared/client/transport';
import { asNodeError, type OperationExecute } from './shared/items/items';

const operations: Record<string, Record<string, OperationExecute>> = {
	contact: contactOperations,
	savedList: savedListOperations,
	credits: creditsOperations,
};

export class ContactData implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Contact Data',
		name: 'contactData',
		icon: { light: 'file:../../icons/contactData.svg', dark: 'file:../../icons/contactData.dark.svg' },
		group: ['transform'],
		// Version 2 reads per-item values from a field of each item by default (no expression per item).
		version: [1, 2],
		defaultVersion: 2,
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
				],
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
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const run = operations[resource]?.[operation];
		if (!run) {
			throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
		}
		try {
			const output = await run.call(this, this.getInputData());
			return [toolAnswer(this, { resource, operation }, output)];
		} catch (error) {
			// Every error leaves through one place, which decides whether its message names the item.
			throw asNodeError(this, error);
		}
	}
}
