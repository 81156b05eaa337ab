// The one placeholder the scripted model and the MCP client fill in their calls' arguments (scripts/e2e/):
// "$ids:<from>-<to>" becomes the contact ids (ct_…) from..to-1 of a search answer's text, comma-separated,
// so a script can unlock what a search found without knowing the ids in advance.
const PLACEHOLDER = /^\$ids:(\d+)-(\d+)$/;

export function withIds(args, searchAnswerText) {
	const ids = [...new Set(String(searchAnswerText).match(/ct_[A-Za-z0-9]+/g) ?? [])];
	return Object.fromEntries(
		Object.entries(args ?? {}).map(([key, value]) => {
			const range = typeof value === 'string' && PLACEHOLDER.exec(value);
			return [key, range ? ids.slice(Number(range[1]), Number(range[2])).join(',') : value];
		}),
	);
}
