/**
 * The API's base URL rule: https:// only, except a loopback host (the local sandbox), so an API key
 * never travels in clear text over a network; no query or fragment, which would swallow the paths
 * joined after it. A trailing `/v1` (copied from the API's docs) is dropped, since every path starts
 * with it. The node's transport, the credential's `authenticate` and the credential test check it
 * (`baseUrlProblem`).
 */
import { API_PREFIX } from './contract';

const HTTPS_URL = /^https:\/\/[^\s/?#]+/i;
const LOOPBACK_HTTP_URL = /^http:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?([/?#]|$)/i;
const NO_QUERY_OR_FRAGMENT = /^[^?#]*$/;
/** What `normalizeBaseUrl` drops: the API's version prefix (`/v1`) as a path suffix, and trailing slashes. */
const TRAILING_VERSION_AND_SLASHES = new RegExp(`(/+${API_PREFIX.slice(1)})?/*$`, 'i');

export function isAllowedBaseUrl(baseUrl: string): boolean {
	const trimmed = baseUrl.trim();
	return (
		NO_QUERY_OR_FRAGMENT.test(trimmed) &&
		(HTTPS_URL.test(trimmed) || LOOPBACK_HTTP_URL.test(trimmed))
	);
}

/** Whether a signed URL (which carries its own query) may be opened: https, or http on loopback. */
export function isAllowedSignedUrl(url: string): boolean {
	const trimmed = url.trim();
	return HTTPS_URL.test(trimmed) || LOOPBACK_HTTP_URL.test(trimmed);
}

/** The base URL without surrounding blanks, a trailing `/v1` or trailing slashes, so paths join cleanly. */
export function normalizeBaseUrl(baseUrl: string): string {
	return baseUrl.trim().replace(TRAILING_VERSION_AND_SLASHES, '');
}

/** Whether the base URL is a web address at all: a scheme and a host, in a form a URL can take. */
function isWebAddress(baseUrl: string): boolean {
	return URL.canParse(normalizeBaseUrl(baseUrl));
}

/**
 * Why the credential's Base URL cannot be used, in words that name it (a base URL is not a secret),
 * or `undefined` when it can.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	const named = `The Contact Data API credential’s Base URL "${baseUrl}"`;
	if (!isWebAddress(baseUrl)) {
		return `${named} is not a valid web address: enter it as shown in the Contact Data dashboard, starting with https://`;
	}
	if (!isAllowedBaseUrl(baseUrl)) {
		return `${named} is refused: it must start with https:// (plain http:// is allowed only for the local sandbox on localhost, 127.x.x.x or [::1]) and contain no query (?…) or fragment (#…)`;
	}
	return undefined;
}
