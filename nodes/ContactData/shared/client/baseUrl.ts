/** Base URLs: https (the key never travels in clear; http on loopback), no query or fragment. */
import { API_PREFIX } from './contract';

const HTTPS_URL = /^https:\/\/[^\s/?#]+/i;
const LOOPBACK_HTTP_URL = /^http:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?([/?#]|$)/i;
const NO_QUERY_OR_FRAGMENT = /^[^?#]*$/;
/** A trailing `/v1` (copied from the API's docs; every path starts with it) and slashes. */
const TRAILING_VERSION_AND_SLASHES = new RegExp(`(/+${API_PREFIX.slice(1)})?/*$`, 'i');

/** Whether a signed URL (which carries its own query) may be opened: https, or http on loopback. */
export function isAllowedSignedUrl(url: string): boolean {
	const trimmed = url.trim();
	return HTTPS_URL.test(trimmed) || LOOPBACK_HTTP_URL.test(trimmed);
}

export function isAllowedBaseUrl(baseUrl: string): boolean {
	return NO_QUERY_OR_FRAGMENT.test(baseUrl.trim()) && isAllowedSignedUrl(baseUrl);
}

export function normalizeBaseUrl(baseUrl: string): string {
	return baseUrl.trim().replace(TRAILING_VERSION_AND_SLASHES, '');
}

/**
 * Why the credential's Base URL cannot be used, naming it (it is not a secret): a short headline,
 * what to do, and the whole sentence a credential test shows; else undefined.
 */
export function baseUrlProblem(
	baseUrl: string,
): { headline: string; remedy: string; whole: string } | undefined {
	const named = `The Contact Data API credential’s Base URL "${baseUrl}"`;
	if (!URL.canParse(normalizeBaseUrl(baseUrl))) {
		const headline = `${named} is not a valid web address`;
		const whole = `${headline}: enter it as shown in the Contact Data dashboard, starting with https://`;
		return {
			headline,
			remedy: 'Enter it as shown in the Contact Data dashboard, starting with https://.',
			whole,
		};
	}
	if (isAllowedBaseUrl(baseUrl)) return undefined;
	const why =
		'plain http:// is allowed only for the local sandbox on localhost, 127.x.x.x or [::1]';
	const whole = `${named} is refused: it must start with https:// (${why}) and contain no query (?…) or fragment (#…)`;
	if (!isAllowedSignedUrl(baseUrl))
		return {
			headline: `${named} is refused: it must start with https://`,
			remedy: `${why.charAt(0).toUpperCase()}${why.slice(1)}.`,
			whole,
		};
	const headline = `${named} is refused: it may contain no query (?…) or fragment (#…)`;
	return { headline, remedy: 'Remove the part from ? or # on.', whole };
}
