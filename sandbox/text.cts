/** Text forms used for matching and for generated addresses. */

/** Lower-case words of a text, accents removed (keyword matching and email local parts). */
export function wordsOf(text: string): string[] {
	return fold(text)
		.split(/[^a-z0-9]+/)
		.filter((word) => word.length > 0);
}

/** Lower case without accents. */
export function fold(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase();
}

/** Letters only, lower case: the form of a name in an email address or a LinkedIn handle. */
export function slug(text: string): string {
	return fold(text).replace(/[^a-z]/g, '');
}
