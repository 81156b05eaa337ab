/**
 * What a run of a charging operation cost, on its output: downstream nodes and AI agents read it
 * from the items, not only from the notice.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/** An output that is a contact record (not an error, a no-match or an item passed over). */
export function isContactRecord(json: IDataObject): boolean {
	return typeof json.id === 'string' && json.error === undefined && json.unlock_skipped === undefined;
}

export class RunCharges {
	/** Credits the API reported as charged by this node's run. */
	charged = 0;
	/** The balance the API reported after the run's last charged call. */
	remaining: number | null = null;

	note(answer: { credits_charged: number; credits_remaining: number }): void {
		this.charged += answer.credits_charged;
		this.remaining = answer.credits_remaining;
	}

	/**
	 * Every contact record (not error, no-match or passed-over items) gets the run's totals: `credits_charged_in_run`
	 * and `credits_remaining` (null when no call was made).
	 */
	onItems(items: INodeExecutionData[]): INodeExecutionData[] {
		return items.map((item) =>
			isContactRecord(item.json)
				? {
						...item,
						json: {
							...item.json,
							credits_charged_in_run: this.charged,
							credits_remaining: this.remaining,
						},
					}
				: item,
		);
	}
}
