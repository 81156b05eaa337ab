/**
 * The Contact Data node's parameters for each bench job, as a user would set them in the editor.
 * The one place the bench depends on the node's parameter names.
 */
import type { INodeParameters } from 'n8n-workflow';

/** Unlock the contact whose id is in each item's `id` field, basic level, within a credit budget. */
export function unlockParameters(maxCredits: number): INodeParameters {
	return {
		resource: 'contact',
		operation: 'unlock',
		contactIds: '={{ $json.id }}',
		level: 'basic',
		maxCredits,
	};
}

/**
 * Version 2's Unlock reading each item's `id` field directly (Contact IDs From: A Field of Each
 * Item), instead of version 1's expression per item.
 */
export function unlockFieldParameters(maxCredits: number): INodeParameters {
	return {
		resource: 'contact',
		operation: 'unlock',
		contactIdsFrom: 'field',
		contactIdField: 'id',
		level: 'basic',
		maxCredits,
	};
}

/** Search with Return All, filtered by each item's `country` (one search per input item). */
export function searchAllParameters(): INodeParameters {
	return {
		resource: 'contact',
		operation: 'search',
		returnAll: true,
		filters: { country: '={{ $json.country }}' },
	};
}

/** Search with a Limit, filtered by each item's `title` and `country`. */
export function searchLimitParameters(limit: number): INodeParameters {
	return {
		resource: 'contact',
		operation: 'search',
		returnAll: false,
		limit,
		filters: { title: '={{ $json.title }}', country: '={{ $json.country }}' },
	};
}

/** Export a saved list as CSV into the binary property `data`. */
export function exportParameters(listId: string): INodeParameters {
	return {
		resource: 'savedList',
		operation: 'export',
		listId: { __rl: true, mode: 'id', value: listId },
		outputAs: 'binary',
		format: 'csv',
		binaryPropertyName: 'data',
	};
}
