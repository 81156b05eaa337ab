/** Reading answer headers as n8n hands them over: a name may carry one value or several. */

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export function firstHeaderValue(headers: ResponseHeaders, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** A non-negative number header (seconds may have decimals); undefined when absent or bad. */
export function numberHeader(headers: ResponseHeaders, name: string): number | undefined {
	const raw = firstHeaderValue(headers, name);
	if (raw === undefined || raw.trim() === '') return undefined;
	const value = Number(raw);
	return Number.isFinite(value) && value >= 0 ? value : undefined;
}
