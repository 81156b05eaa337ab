/**
 * The Max Credits budget of a run: before each charged call the node reserves what the call could
 * cost at most, and refuses to send when that would go over the budget.
 */
import { NodeOperationError, type INode } from 'n8n-workflow';

export class CreditBudget {
	/** Credits the API reported as charged so far in this run. */
	spent = 0;

	constructor(
		private readonly node: INode,
		readonly maxCredits: number,
	) {}

	/** Throws (before anything is sent) when a call that may cost `worstCase` could exceed the budget. */
	reserve(worstCase: number, what: string, itemIndex?: number): void {
		if (this.spent + worstCase <= this.maxCredits) return;
		throw new NodeOperationError(
			this.node,
			`Max Credits budget of ${this.maxCredits} reached: ${what} could cost up to ${worstCase} credits and ${this.spent} are already spent in this run${itemIndex === undefined ? '' : ` [item ${itemIndex}]`}`,
			{
				itemIndex,
				description:
					'Nothing more was sent. Raise Max Credits to continue; contacts already unlocked can be unlocked again free of charge.',
			},
		);
	}

	charge(credits: number): void {
		this.spent += credits;
	}
}
