/**
 * The "future API" mode: answers as a later version of the service might give them without a
 * version bump. Every JSON object gains a field no client knows and has its keys in reverse order,
 * and enum values appear that the contract does not list. Clients must pass all of it through.
 * Requests are still checked strictly.
 */

/** Enum fields of answers and a value the contract does not list for each. */
const NEW_ENUM_VALUES: Record<string, string> = {
	tier: 'business',
	email_status: 'catch_all',
	seniority: 'board_member',
	funding_stage: 'series_z',
	status: 'under_review',
	operation: 'export',
};

/** New values of enum arrays: event types of a webhook subscription. */
const NEW_ARRAY_VALUES: Record<string, string> = { events: 'funding_round' };

export const FUTURE_FIELD = 'x_added_later';

export function futureBody(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(futureBody);
	if (value === null || typeof value !== 'object') return value;
	const entries = Object.entries(value as Record<string, unknown>).reverse();
	const out: Record<string, unknown> = {
		[FUTURE_FIELD]: { since: 'v1.x', note: 'a field this client does not know' },
	};
	for (const [key, field] of entries) out[key] = futureField(key, field);
	return out;
}

function futureField(key: string, field: unknown): unknown {
	if (typeof field === 'string' && key in NEW_ENUM_VALUES) return NEW_ENUM_VALUES[key];
	if (
		Array.isArray(field) &&
		key in NEW_ARRAY_VALUES &&
		field.every((entry) => typeof entry === 'string')
	) {
		return [...field, NEW_ARRAY_VALUES[key]];
	}
	return futureBody(field);
}
