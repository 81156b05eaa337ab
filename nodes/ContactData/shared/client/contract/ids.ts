export const ID_PREFIXES = {
	contact: 'ct_',
	list: 'ls_',
	webhook: 'wh_',
	refund: 'rf_',
	event: 'evt_',
} as const;

/** A saved list id as clients check it before putting it in a path (`..` or `/` would change it). */
export const LIST_ID_PATTERN = new RegExp(`^${ID_PREFIXES.list}[A-Za-z0-9_-]+$`);
