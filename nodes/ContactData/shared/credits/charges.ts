/**
 * What a run of a charging operation cost, on its output: downstream nodes and AI agents read it
 * from the items, not only from the notice.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { CreditBudget } from './budget';

/** An output that is a contact record (not an error, a no-match or an item passed over). */
export function isContactRecord(json: IDataObject): boolean {
	return typeof json.id === 'string' && json.error === undefined && json.unlock_skipped === undefined;
}

/**
 * Every contact record (not error, no-match or passed-over items) gets the run's totals, as its
 * budget settled them: `credits_charged_in_run` and `credits_remaining` (null when no call was made).
 */
export function withRunCharges(budget: CreditBudget, items: INodeExecutionData[]): INodeExecutionData[] {
	return items.map((item) =>
		isContactRecord(item.json)
			? {
					...item,
					json: {
						...item.json,
						credits_charged_in_run: budget.chargedHere,
						credits_remaining: budget.creditsRemaining,
					},
				}
			: item,
	);
}
