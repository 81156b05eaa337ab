/**
 * The Options of Unlock and Enrich: one collection for both, each option shown for the operations
 * it applies to (the caps over time for both).
 */
import type { INodeProperties } from 'n8n-workflow';

import { capsOverTimeOptions } from '../../shared/parameters/capsOverTime';

const showFor = (operation: string) => ({ show: { '/operation': [operation] } });

export const CHARGING_OPTIONS: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { show: { resource: ['contact'], operation: ['unlock', 'enrich'] } },
	options: [
		...capsOverTimeOptions,
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
