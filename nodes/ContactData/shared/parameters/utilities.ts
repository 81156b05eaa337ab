/** "1 call", "3 calls". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
	return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Unique values in first-seen order. */
export function unique<T>(values: Iterable<T>): T[] {
	return [...new Set(values)];
}

export function chunk<T>(values: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < values.length; start += size)
		chunks.push(values.slice(start, start + size));
	return chunks;
}
