/** The trigger's "Saved Lists to Watch" accepts what the contract's LIST_ID_PATTERN accepts, no more. */
import type { INode } from 'n8n-workflow';

import { LIST_ID_PATTERN } from '../../../../../nodes/ContactData/shared/client/contract';
import { toListIds } from '../../../../../nodes/ContactData/shared/parameters/watched';
import { triggerProperties } from '../../../../../nodes/ContactData/trigger/parameters';

const node: INode = {
	id: 'trigger',
	name: 'Contact Data Trigger',
	type: 'n8n-nodes-contact-data.contactDataTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const entry = (value: string) => ({ savedList: { __rl: true, mode: 'id', value } });

it.each(['ls_..', 'ls_a.b', 'ls_%2e%2e'])(
	'refuses %s, which the contract rules out as a saved list id',
	(id) => {
		expect(LIST_ID_PATTERN.test(id)).toBe(false);
		expect(() => toListIds(node, [entry(id)])).toThrow(
			`Saved list 1 in "Saved Lists to Watch" is "${id}", not a saved list ID`,
		);
	},
);

it('takes an id the contract accepts', () => {
	expect(toListIds(node, [entry('ls_23266b532351e230')])).toEqual(['ls_23266b532351e230']);
});

it('the editor checks the By ID mode with the contract’s pattern', () => {
	const lists = triggerProperties.find((property) => property.name === 'lists');
	expect(JSON.stringify(lists)).toContain(JSON.stringify(LIST_ID_PATTERN.source));
});
