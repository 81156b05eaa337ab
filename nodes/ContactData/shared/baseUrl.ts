/**
 * The API's base URL rule: https:// only, except a loopback host (the local sandbox), so an API key
 * never travels in clear text over a network. The credential test applies the same rule as an
 * expression (credentials/ContactDataApi.credentials.ts); keep the two in step.
 */

const HTTPS_URL = /^https:\/\/[^\s/]+/i;
const LOOPBACK_HTTP_URL = /^http:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?(\/|$)/i;

export function isAllowedBaseUrl(baseUrl: string): boolean {
	const trimmed = baseUrl.trim();
	return HTTPS_URL.test(trimmed) || LOOPBACK_HTTP_URL.test(trimmed);
}

/** The base URL without surrounding blanks or trailing slashes, so paths join cleanly. */
export function normalizeBaseUrl(baseUrl: string): string {
	return baseUrl.trim().replace(/\/+$/, '');
}

export const BASE_URL_REFUSED_MESSAGE =
	'The Contact Data API credential’s Base URL must start with https:// (plain http:// is allowed only for the local sandbox on localhost, 127.x.x.x or [::1])';
