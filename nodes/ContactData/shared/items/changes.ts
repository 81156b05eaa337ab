/** What counts as a job or role change, and its key: one definition, so both triggers agree. */
import { createHash } from 'node:crypto';

/** One side of a change, as events carry it (a type: an item's JSON may hold it). */
export type JobSide = {
	title: string | null;
	company: { name: string | null; domain: string | null };
};

export type JobChangeType = 'job_change' | 'role_change';

/** Lower case, punctuation as space, runs of space as one: "V.P., Sales " and "vp sales" agree. */
function normalizeText(value: string | null | undefined): string | null {
	if (typeof value !== 'string') return null;
	const normal = value
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();
	return normal === '' ? null : normal;
}

/** A domain as written in any case, with or without scheme, "www." or trailing dot or path. */
function normalizeDomain(value: string | null | undefined): string | null {
	if (typeof value !== 'string') return null;
	const domain = value
		.trim()
		.toLowerCase()
		.replace(/^[a-z]+:\/\//, '')
		.replace(/^www\./, '')
		.replace(/[/?#].*$/, '')
		.replace(/\.$/, '');
	return domain === '' ? null : domain;
}

/** The same company: by domain where both have one, else by name; `undefined` when one has neither. */
function sameCompany(a: JobSide['company'], b: JobSide['company']): boolean | undefined {
	const domainA = normalizeDomain(a.domain);
	const domainB = normalizeDomain(b.domain);
	if (domainA !== null && domainB !== null) return domainA === domainB;
	const nameA = normalizeText(a.name);
	const nameB = normalizeText(b.name);
	if (nameA !== null && nameB !== null) return nameA === nameB;
	return undefined;
}

/**
 * Another company is a job change; another title at the same company a role change. A title or
 * company that appears or disappears is neither.
 */
export function changeBetween(previous: JobSide, current: JobSide): JobChangeType | undefined {
	const same = sameCompany(previous.company, current.company);
	if (same === false) return 'job_change';
	if (same === undefined) return undefined;
	const titleBefore = normalizeText(previous.title);
	const titleNow = normalizeText(current.title);
	if (titleBefore === null || titleNow === null) return undefined;
	return titleBefore === titleNow ? undefined : 'role_change';
}

function sideKey(side: JobSide): string[] {
	const company = normalizeDomain(side.company.domain) ?? normalizeText(side.company.name) ?? '';
	return [company, normalizeText(side.title) ?? ''];
}

const KEY_LENGTH = 32;

/** The key of a change from what identifies it. */
export function keyOf(parts: unknown[]): string {
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, KEY_LENGTH);
}

/** The list, contact, type and both sides as compared. */
export function jobChangeKey(
	listId: string,
	contactId: string,
	type: string,
	{ previous, current }: { previous: JobSide; current: JobSide },
): string {
	return keyOf([listId, contactId, type, ...sideKey(previous), ...sideKey(current)]);
}
