import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { searchSavedLists } from './listSearch/searchSavedLists';
import { contactPanels } from './resources/contact';
import { creditsPanels } from './resources/credits';
import { savedListPanels } from './resources/savedList';
import type { Resource } from './node.type';
import { router } from './router';
import { toolAnswer, toolFailure } from './shared/agent/toolAnswer';
import { runsAsTool } from './shared/items/toolCall';
import { CREDENTIAL_TEST, testContactDataApiCredential } from './shared/client/credentialTest';
import { withRunMoney } from './shared/budget/runTexts';
import { restated } from './shared/client/failures';
import { asNodeError, errorItem } from './shared/items/items';
import { inPanelOrder } from './shared/parameters/panelOrder';
import { operationSubtitle } from './shared/parameters/subtitles';

const RESOURCE: INodeProperties = {
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
};

const PANELS = [contactPanels, savedListPanels, creditsPanels];

export class ContactData implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Contact Data',
		name: 'contactData',
		icon: {
			light: 'file:../../icons/contactData.svg',
			dark: 'file:../../icons/contactData.dark.svg',
		},
		group: ['transform'],
		// What each version changes is listed in shared/parameters/versions.ts.
		version: [1, 2, 2.1, 2.2],
		defaultVersion: 2.2,
		// Every panel starts with its resource's Operation parameter.
		subtitle: operationSubtitle(
			RESOURCE,
			PANELS.map(([[operation]]) => operation),
		),
		// Also the default description of the AI tool: what this node does, and nothing of the trigger.
		description:
			'Search, unlock and enrich B2B contacts within a credit budget, manage and export saved lists, and check credits',
		defaults: { name: 'Contact Data' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Literals, as n8n's lint reads them; a test holds them to CREDENTIAL_NAME and CREDENTIAL_TEST.
		credentials: [{ name: 'contactDataApi', required: true, testedBy: 'contactDataApiTest' }],
		// A parameter several operations show is one property (see inPanelOrder).
		properties: inPanelOrder(PANELS.flat().map((panel) => [RESOURCE, ...panel])),
	};

	methods = {
		listSearch: { searchSavedLists },
		credentialTest: { [CREDENTIAL_TEST]: testContactDataApiCredential },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		try {
			const answer = toolAnswer(this);
			const [items] = await router.call(this);
			return [answer(items)];
		} catch (error) {
			// A failure of the whole run (an item's own failure is already its error item): with Continue
			// On Fail, every input item gets it as its error item, paired, so none is lost.
			const failure = withRunMoney(this, asNodeError(this, error));
			// One that names an item is said of each item in turn.
			const ofItem = (item: number) =>
				failure.context.itemIndex === undefined ? failure : restated(this, failure, item);
			if (this.continueOnFail())
				return [this.getInputData().map((_, item) => errorItem(ofItem(item), { item }))];
			// An agent reads it as the tool's answer, so it can act on the remedy (see toolFailure).
			if (runsAsTool(this)) return [toolFailure(this, failure)];
			throw failure;
		}
	}
}
