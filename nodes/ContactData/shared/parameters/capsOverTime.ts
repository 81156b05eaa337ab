/**
 * The caps over time of Unlock and Enrich (version 2): options of the node, kept beside Max Credits
 * (a run's cap). How they are counted is ../budget (rules and chargingRun).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { FROM_VERSION_2 } from './versions';
import { wholeNumber } from './values';

const shownFromVersion2 = { show: FROM_VERSION_2 };

/** The two options, for an operation's Options collection. */
export const capsOverTimeOptions: INodeProperties[] = [
	{
		displayName: 'Max Credits per Day',
		name: 'maxCreditsPerDay',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		displayOptions: shownFromVersion2,
		description:
			'The most credits this node may spend per day (UTC), across its runs and MCP tool calls. 0: no daily cap.',
		// How the caps are counted on several workers and after a restart: docs/agents-and-mcp.md, "Caps".
		hint: 'When n8n runs on several workers, each counts on its own, and a restart of n8n starts the count again from 0',
	},
	{
		displayName: 'Max Credits per MCP Session',
		name: 'maxCreditsPerSession',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		displayOptions: shownFromVersion2,
		description:
			'The most credits one conversation of an outside assistant (an MCP client) may spend, however many calls it makes. 0: none.',
		hint: 'Works for clients that keep a session with the MCP Server Trigger; for the others only Max Credits applies, per call',
	},
];

export type CapOverTimeName = 'maxCreditsPerDay' | 'maxCreditsPerSession';

export const CAP_OVER_TIME_NAMES: Record<CapOverTimeName, string> = {
	maxCreditsPerDay: 'Max Credits per Day',
	maxCreditsPerSession: 'Max Credits per MCP Session',
};

/** A cap over time, checked (a whole number of 0 or more; 0: no cap); read from the first item. */
export function capOverTimeOf(context: IExecuteFunctions, name: CapOverTimeName): number {
	const value = context.getNodeParameter(`options.${name}`, 0, 0);
	return wholeNumber({ node: context.getNode(), itemIndex: 0 }, CAP_OVER_TIME_NAMES[name], value, {
		min: 0,
	});
}
