/** JSON helpers: a canonical form, so bodies and filters compare as parsed values. */

/** JSON text with object keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (value !== null && typeof value === 'object') {
		const source = value as Record<string, unknown>;
		return Object.fromEntries(
			Object.keys(source)
				.sort()
				.filter((key) => source[key] !== undefined)
				.map((key) => [key, sortKeys(source[key])]),
		);
	}
	return value;
}

/** base64url of a JSON value: opaque cursors. */
export function encodeToken(value: unknown): string {
	return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The JSON value of a token, or undefined when it is not one. */
export function decodeToken(token: string): unknown {
	try {
		return JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
	} catch {
		return undefined;
	}
}
