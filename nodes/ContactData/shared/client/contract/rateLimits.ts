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

/** The rate-limit class of a request, or `null` for exports and export downloads (not limited). */
export function rateLimitClassOf(method: string, path: string): RateLimitClass | null {
	const is = (endpoint: Endpoint) => matchPathTemplate(PATH_TEMPLATES[endpoint], path) !== null;
	if (is('listExport') || is('exportDownload')) return null;
	if (method.toUpperCase() !== 'POST') return 'other';
	if (is('search')) return 'search';
	return is('unlock') || is('enrich') ? 'charged' : 'other';
}
