/** The API's ids: the prefix of each kind, and the saved list id a client puts in a path. */

export const ID_PREFIXES = {
	contact: 'ct_',
	list: 'ls_',
	webhook: 'wh_',
	refund: 'rf_',
	event: 'evt_',
} as const;

/**
 * A saved list id as clients check it before putting it in a path: the prefix and the characters the
 * service's ids are made of. Dots and slashes would change the path (`..` is the parent route).
 */
export const LIST_ID_PATTERN = new RegExp(`^${ID_PREFIXES.list}[A-Za-z0-9_-]+$`);
