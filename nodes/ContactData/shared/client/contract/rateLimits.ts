/** The API's rate-limit classes: what a key may send per rolling minute, and which class a call is in. */
import { matchPathTemplate, PATH_TEMPLATES, type Endpoint } from './paths';

/** Rate-limit classes: requests per rolling minute, per key. Exports are unlimited. */
export const RATE_LIMITS = {
	search: 100,
	/** `POST /v1/unlock` and `POST /v1/enrich` together. */
	charged: 60,
	other: 600,
} as const;
export type RateLimitClass = keyof typeof RATE_LIMITS;
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * The calls outside the `other` class, by endpoint: `null` for calls that are not rate limited
 * (exports and export downloads, whatever the method).
 */
const RATE_LIMIT_CLASS_OF: ReadonlyArray<{
	endpoint: Endpoint;
	method?: string;
	rateClass: RateLimitClass | null;
}> = [
	{ endpoint: 'search', method: 'POST', rateClass: 'search' },
	{ endpoint: 'unlock', method: 'POST', rateClass: 'charged' },
	{ endpoint: 'enrich', method: 'POST', rateClass: 'charged' },
	{ endpoint: 'listExport', rateClass: null },
	{ endpoint: 'exportDownload', rateClass: null },
];

/**
 * The rate-limit class of a request, or `null` for calls that are not rate limited
 * (exports and export downloads).
 */
export function rateLimitClassOf(method: string, path: string): RateLimitClass | null {
	const upper = method.toUpperCase();
	const entry = RATE_LIMIT_CLASS_OF.find(
		(candidate) =>
			(candidate.method === undefined || candidate.method === upper) &&
			matchPathTemplate(PATH_TEMPLATES[candidate.endpoint], path) !== null,
	);
	return entry ? entry.rateClass : 'other';
}
