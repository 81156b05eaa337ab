/**
 * Unlock's plan: the contact ids each input item wants, checked, and what the run sends for them
 * (Skip Already Unlocked applied, each id once, those the input shows as held first).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { UNLOCK_LEVELS, type UnlockLevel } from '../../shared/client/contract';
import type { ContactIdsOf } from '../../shared/items/perItemReaders';
import { unique } from '../../shared/parameters/values';

/** One contact id wanted by one input item (an item may hold several). */
export interface Wanted {
	itemIndex: number;
	id: string;
}

const LEVEL_RANK: Record<UnlockLevel, number> = { basic: 0, premium: 1 };

/** Whether the input item says it holds the contact at this level: decides Skip Already Unlocked, never the budget. */
function shownAsHeld(json: IDataObject, id: string, level: UnlockLevel): boolean {
	if (json.id !== id || json.unlocked !== true) return false;
	const heldLevel = json.level as UnlockLevel | undefined;
	// A preview says only "unlocked": it is held at basic level at least.
	const rank = heldLevel && UNLOCK_LEVELS.includes(heldLevel) ? LEVEL_RANK[heldLevel] : 0;
	return rank >= LEVEL_RANK[level];
}

/** What a run sends, worked out from the checked items before anything is sent. */
export interface Plan {
	/** One entry per id an item wants, in input order. */
	wanted: Wanted[];
	/** Whether Skip Already Unlocked passes this entry through unsent. */
	isSkipped: (entry: Wanted) => boolean;
	/** The unique ids to send, those the input shows as held first; what the budget does not reach stays here. */
	queue: string[];
	/** How many of them the input does not show as held: what the run may be charged for. */
	mayCharge: number;
	/** The first item that wants an id: the item named in the errors of its call. */
	firstItemOf: (id: string) => number | undefined;
}

/** Step 1 for one item: the contact ids it wants, checked; an id it repeats is one contact. */
export function wantedBy(contactIdsOf: ContactIdsOf, itemIndex: number): Wanted[] {
	return unique(contactIdsOf(itemIndex)).map((id) => ({ itemIndex, id }));
}

/** The checked ids as what to send: Skip Already Unlocked applied, each id once, the ones shown as held first. */
export function planOf(items: INodeExecutionData[], wanted: Wanted[], level: UnlockLevel, skipHeld: boolean): Plan {
	const shown = new Set(
		wanted.filter(({ itemIndex, id }) => shownAsHeld(items[itemIndex].json, id, level)).map(({ id }) => id),
	);
	const isSkipped = ({ itemIndex, id }: Wanted) => skipHeld && shownAsHeld(items[itemIndex].json, id, level);
	const toSend = unique(wanted.filter((entry) => !isSkipped(entry)).map(({ id }) => id));
	// What the input shows as held goes first (it is likely free) and forecasts the run, but every call
	// reserves its full price: a wrong "unlocked": true costs its price, within the budget.
	const queue = [...toSend.filter((id) => shown.has(id)), ...toSend.filter((id) => !shown.has(id))];
	const mayCharge = toSend.filter((id) => !shown.has(id)).length;
	const firstItemOf = (id: string) => wanted.find((entry) => entry.id === id)?.itemIndex;
	return { wanted, isSkipped, queue, mayCharge, firstItemOf };
}
