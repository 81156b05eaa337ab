/**
 * What a run of a charging operation cost, on its output: downstream nodes and AI agents read it
 * from the items, not only from the notice.
 */
import type { INodeExecutionData } from 'n8n-workflow';

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
	 * Every contact item (not error or no-match items) gets the run's totals: `credits_charged_in_run`
	 * and `credits_remaining` (null when no call was made).
	 */
	onItems(items: INodeExecutionData[]): INodeExecutionData[] {
		return items.map((item) =>
			typeof item.json.id === 'string' && item.json.error === undefined
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
