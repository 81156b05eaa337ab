/**
 * The nodes panel as n8n builds it from the descriptions, the same on 2.41.1 and 1.123.81:
 * - a trigger whose `name` less "Trigger" is an action node's becomes one entry with that node
 *   (`generateMergedNodesAndActions` in the node creator's `useActionsGeneration`), named as the
 *   action node and described by the trigger ("default to trigger description");
 * - an entry with more than one action shows its `displayName` less its first "Trigger" (`NodeItem`).
 */
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { ContactData } from '../../../nodes/ContactData/ContactData.node';
import { ContactDataPollTrigger } from '../../../nodes/ContactData/ContactDataPollTrigger.node';
import { ContactDataTrigger } from '../../../nodes/ContactData/ContactDataTrigger.node';

const [action, trigger, poll] = [
	new ContactData(),
	new ContactDataTrigger(),
	new ContactDataPollTrigger(),
].map((node: INodeType) => node.description);

/** The entry a trigger is shown in: the action node's it merges into, or its own; either way its text. */
function entryOf(node: INodeTypeDescription) {
	const merged = node.name.replace('Trigger', '') === action.name;
	return {
		name: (merged ? action : node).displayName.replace('Trigger', '').trimEnd(),
		description: node.description,
	};
}

it('the trigger merges into the Contact Data entry, which shows the trigger’s description', () => {
	expect(entryOf(trigger).name).toBe(action.displayName);
	expect(entryOf(poll).name).not.toBe(action.displayName);
});

it('the Contact Data entry is described by what its actions and its trigger do', () => {
	const { description } = entryOf(trigger);
	for (const words of [/search/i, /unlock/i, /enrich/i, /saved lists/i, /credits/i])
		expect(description).toMatch(words);
	expect(description).toMatch(
		/start(s)? (the )?workflows? on job changes, role changes and intent/i,
	);
});

it('the action node describes itself alone: it is also the default description of its AI tool', () => {
	expect(action.description).toMatch(/^Search, unlock and enrich/);
	expect(action.description).not.toMatch(/trigger|job change|intent/i);
});

it('the poll trigger’s name reads whole once n8n drops "Trigger", and says what it checks', () => {
	const shown = entryOf(poll).name;
	expect(`${shown} Trigger`).toBe(poll.displayName);
	expect(shown).toBe('Contact Data Job Change Check');
	expect(poll.defaults.name).toBe(shown);
	expect(poll.name).toBe('contactDataPollTrigger');
});
