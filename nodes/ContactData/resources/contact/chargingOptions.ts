/** The Options of Unlock and Enrich: one collection, each option shown where it applies. */
import type { INodeProperties } from 'n8n-workflow';

import { CAPS_OVER_TIME } from '../../shared/budget/chargingRun';
import { FROM_VERSION_2 } from '../../shared/parameters/versions';

const showFor = (operation: string) => ({ show: { '/operation': [operation] } });
const shownFromVersion2 = { show: FROM_VERSION_2 };

export const CHARGING_OPTIONS: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { show: { resource: ['contact'], operation: ['unlock', 'enrich'] } },
	options: [
		{
			displayName: CAPS_OVER_TIME.maxCreditsPerDay.label,
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
			displayName: CAPS_OVER_TIME.maxCreditsPerSession.label,
			name: 'maxCreditsPerSession',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			displayOptions: shownFromVersion2,
			description:
				'The most credits one conversation of an outside assistant (an MCP client) may spend, however many calls it makes. 0: none.',
			hint: 'Works for clients that keep a session with the MCP Server Trigger; for the others only Max Credits applies, per call',
		},
		{
			displayName: 'Output No-Match Items',
			name: 'outputNoMatch',
			type: 'boolean',
			default: false,
			displayOptions: showFor('enrich'),
			description:
				'Whether a person the service does not know gives an output item with "matched": false (found contacts then carry "matched": true) instead of stopping the node. Use an IF node on matched to branch.',
		},
		{
			displayName: 'Skip Already Unlocked',
			name: 'skipAlreadyUnlocked',
			type: 'boolean',
			default: false,
			displayOptions: showFor('unlock'),
			description:
				'Whether to pass items that already show "unlocked": true through unchanged instead of unlocking them again (which is free and returns the full record)',
		},
	],
};
