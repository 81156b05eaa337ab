/** The Events of both triggers, read one way: as chosen or from an expression, checked against what the trigger offers. */
import type { INode } from 'n8n-workflow';

import { EVENT_TYPES } from '../../../../../nodes/ContactData/shared/client/contract';
import { toEventTypes } from '../../../../../nodes/ContactData/shared/parameters/watched';

const node: INode = {
	id: 'trigger',
	name: 'Contact Data Poll Trigger',
	type: 'n8n-nodes-contact-data.contactDataPollTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const JOB_CHANGES = ['job_change', 'role_change'] as const;

it('takes an array or a comma-separated string, in the order offered, without repeats', () => {
	expect(toEventTypes(node, ['role_change', 'intent', 'role_change'], EVENT_TYPES)).toEqual([
		'role_change',
		'intent',
	]);
	expect(toEventTypes(node, ' role_change , job_change,', JOB_CHANGES)).toEqual([
		'job_change',
		'role_change',
	]);
});

it('refuses an event the trigger does not offer, saying which it offers and where the others come from', () => {
	const refusal = () =>
		toEventTypes(
			node,
			['job_change', 'intent'],
			JOB_CHANGES,
			'intent signals come only through the Contact Data Trigger',
		);
	expect(refusal).toThrow('Unknown event "intent" in "Events"');
	try {
		refusal();
	} catch (error) {
		expect((error as { description?: string }).description).toBe(
			'Events must be among: job_change, role_change (intent signals come only through the Contact Data Trigger).',
		);
	}
});

it('refuses no event at all', () => {
	for (const value of [[], '', null])
		expect(() => toEventTypes(node, value, EVENT_TYPES)).toThrow(
			'Choose at least one event in "Events"',
		);
});
