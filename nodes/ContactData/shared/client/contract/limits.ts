import type { UnlockLevel } from './enums';

export const LIMITS = {
	/** Distinct ids in one `POST /v1/unlock` (413 `too_many_ids` past it). */
	idsPerUnlock: 100,
	searchLimitMin: 1,
	searchLimitMax: 100,
	searchLimitDefault: 25,
	/** A search can be paged through its first 10,000 results; a saved list holds the rest. */
	searchPagingCap: 10_000,
	listsLimitMax: 100,
	listsLimitDefault: 25,
	listNameMaxLength: 200,
	/** `contact_ids` when creating a list. */
	listCreateIdsMax: 1_000,
	/** `ids` when adding to or removing from a list (413 past it). */
	listIdsMax: 1_000,
	/** Lists of this many contacts or more are exported through a signed URL. */
	bulkExportThreshold: 100_000,
	idempotencyKeyMaxLength: 255,
	idempotencyWindowMs: 24 * 60 * 60 * 1000,
	exportUrlTtlMs: 60 * 60 * 1000,
	/** Entries of `usage` and `refunds` in the balance answer. */
	balanceHistory: 50,
	/** Refund claims approved at once per account. */
	autoApprovedRefunds: 100,
	intentScoreMin: 0,
	intentScoreMax: 100,
	/** The longest id a client sends; the service's are far shorter. */
	idMaxLength: 64,
	/** The longest text value of a search filter (a job title, keywords…). */
	filterTextMaxLength: 1_000,
	/** The longest further filter (one the node does not name), as JSON. */
	filterValueMaxLength: 10_000,
} as const;

/** Credits charged per contact newly unlocked at a level. */
export const CREDIT_COST: Record<UnlockLevel, number> = { basic: 1, premium: 2 };
