/** Generated company names and domains. */
import {
	COMPANY_NAME_ENDINGS,
	COMPANY_NAME_FIRST,
	COMPANY_NAME_SECOND,
	COMPANY_NAME_SECTORS,
	DOMAIN_TLDS,
} from './vocab.cjs';

/** The distinctive part of a company name ("Blue Harbor", "Datafy", "Summit Health", "Sterling & Stone"). */
export function companyBase(a: number, b: number, pattern: number): string {
	const pick = (words: string[], draw: number) => words[Math.floor(draw * words.length)];
	if (pattern < 0.3) return `${pick(COMPANY_NAME_FIRST, a)} ${pick(COMPANY_NAME_SECOND, b)}`;
	if (pattern < 0.55)
		return `${pick(COMPANY_NAME_FIRST, a)}${pick(COMPANY_NAME_SECOND, b).toLowerCase()}`;
	if (pattern < 0.75) return `${pick(COMPANY_NAME_FIRST, a)} ${pick(COMPANY_NAME_SECTORS, b)}`;
	if (pattern < 0.9) return `${pick(COMPANY_NAME_SECOND, a)}${pick(COMPANY_NAME_ENDINGS, b)}`;
	return `${pick(COMPANY_NAME_FIRST, a)} & ${pick(COMPANY_NAME_FIRST, b)}`;
}

/** A domain not taken yet: the name with its TLD, another TLD, a usual prefix, then a number. */
export function freeDomain(stem: string, tld: string, used: Set<string>): string {
	const candidates = [tld, ...DOMAIN_TLDS].map((other) => `${stem}.${other}`);
	candidates.push(
		...['get', 'try', 'use'].map((prefix) => `${prefix}${stem}.${tld}`),
		`${stem}hq.${tld}`,
	);
	for (const candidate of candidates) if (!used.has(candidate)) return candidate;
	for (let n = 2; ; n++) if (!used.has(`${stem}${n}.${tld}`)) return `${stem}${n}.${tld}`;
}
