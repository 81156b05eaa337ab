/**
 * Search over the data set. Filters are evaluated once per vocabulary entry (titles, companies,
 * cities, names) into small masks, titles and keywords through word indexes, then one scan over
 * the contact columns applies them all.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
	COMPANY_SIZE_PATTERN,
	knownSearchFiltersSchema,
} from '../nodes/ContactData/shared/client/contract';
import type { Dataset } from './data.cjs';
import { canonicalJson } from './json.cjs';
import { fold, wordsOf } from './text.cjs';
import { TECHNOLOGIES } from './vocab.cjs';
import { vocabularyIndexes, type WordIndex } from './wordIndex.cjs';

/**
 * Two of the service's 270+ further filters, so that a client's way of sending a filter by its name
 * can be tried (CONTRACT.md); any other name stays 400, as the service answers a name it does not know.
 */
export const REVENUE_RANGES = [
	'0-1m',
	'1m-10m',
	'10m-50m',
	'50m-100m',
	'100m-500m',
	'500m+',
] as const;
const furtherFiltersShape = {
	revenue_range: z.array(z.enum(REVENUE_RANGES)).optional(),
	employee_count_min: z.number().int().min(0).optional(),
};

/** The sandbox's yearly revenue of a company, in US dollars: a fixed figure per employee. */
export const REVENUE_PER_EMPLOYEE = 200_000;

/** The lowest yearly revenue of each range, in the order of REVENUE_RANGES. */
const REVENUE_FLOORS = [0, 1e6, 10e6, 50e6, 100e6, 500e6];

/** The revenue range a company of this size falls in. */
export function revenueRangeOf(size: number): (typeof REVENUE_RANGES)[number] {
	const revenue = size * REVENUE_PER_EMPLOYEE;
	const below = REVENUE_FLOORS.findIndex((floor) => revenue < floor);
	return REVENUE_RANGES[(below === -1 ? REVENUE_FLOORS.length : below) - 1];
}

const sandboxFiltersObject = knownSearchFiltersSchema.extend(furtherFiltersShape);
export type KnownFilters = z.infer<typeof sandboxFiltersObject>;

/**
 * The sandbox's caps on filters, so that no search holds the event loop (the service has limits of
 * its own). Keyword words are tracked as bits of one 32-bit word per vocabulary entry.
 */
export const FILTER_CAPS = {
	values: 1_000,
	valueLength: 200,
	keywordsLength: 1_000,
	keywordWords: 32,
} as const;

interface KeywordMasks {
	first: Uint32Array;
	last: Uint32Array;
	title: Uint32Array;
	company: Uint32Array;
	city: Uint32Array;
	all: number;
}

export interface CompiledFilters {
	/** Canonical text of the filters (empty arrays and empty keywords dropped). */
	readonly key: string;
	readonly titleMask: Uint8Array | null;
	readonly companyMask: Uint8Array | null;
	readonly cityMask: Uint8Array | null;
	readonly keywords: KeywordMasks | null;
}

/** The filters without the parts that are ignored (empty arrays, empty keywords). */
function normalizeFilters(filters: KnownFilters): KnownFilters {
	const normalized: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(filters)) {
		if (value === undefined) continue;
		if (Array.isArray(value) && value.length === 0) continue;
		if (name === 'keywords' && wordsOf(String(value)).length === 0) continue;
		normalized[name] = value;
	}
	return normalized as KnownFilters;
}

/**
 * The distinct keyword words, less those implied by a longer word that starts with them. Sorted,
 * a word that begins another begins the word right after it, so one pass finds them.
 */
export function keywordWords(keywords: string): string[] {
	const words = [...new Set(wordsOf(keywords))].sort();
	return words.filter((word, n) => n + 1 === words.length || !words[n + 1].startsWith(word));
}

/** What is wrong with one filter's value past the sandbox's caps, if anything. */
function capProblem(name: string, value: unknown): string | undefined {
	if (name === 'keywords' && typeof value === 'string') {
		if (value.length > FILTER_CAPS.keywordsLength)
			return `must be at most ${FILTER_CAPS.keywordsLength} characters`;
		if (keywordWords(value).length > FILTER_CAPS.keywordWords)
			return `must have at most ${FILTER_CAPS.keywordWords} distinct words`;
		return undefined;
	}
	if (!Array.isArray(value)) return undefined;
	if (value.length > FILTER_CAPS.values) return `must have at most ${FILTER_CAPS.values} values`;
	if (value.some((entry) => typeof entry === 'string' && entry.length > FILTER_CAPS.valueLength)) {
		return `values must be at most ${FILTER_CAPS.valueLength} characters`;
	}
	if (name === 'title' && value.some((entry) => wordsOf(String(entry)).length === 0))
		return 'each value needs a letter or a digit';
	return undefined;
}

/** The named filters and the two further ones, within the sandbox's caps (400 naming the filter past one). */
export const sandboxFiltersSchema = sandboxFiltersObject.superRefine((filters, ctx) => {
	for (const [name, value] of Object.entries(filters)) {
		const problem = capProblem(name, value);
		if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
	}
});

/** Titles holding every word of at least one value as a whole word (case and accents aside). */
function titlesMatching(ds: Dataset, values: string[]): Uint8Array {
	const index = vocabularyIndexes(ds).title;
	const mask = new Uint8Array(ds.titles.length);
	for (const value of values) {
		const words = [...new Set(wordsOf(value))];
		// Walk the rarest word's titles; check the other words in each title's own few words.
		const rarest = words
			.map((word) => index.holding(word))
			.reduce((best, titles) => (titles.length < best.length ? titles : best));
		for (const t of rarest) {
			if (words.every((word) => ds.titles[t].words.includes(word))) mask[t] = 1;
		}
	}
	return mask;
}

function maskOf(count: number, test: (index: number) => boolean): Uint8Array {
	const mask = new Uint8Array(count);
	for (let i = 0; i < count; i++) mask[i] = test(i) ? 1 : 0;
	return mask;
}

/** Per vocabulary entry, a bit for each keyword word that begins one of the entry's words. */
function keywordMask(index: WordIndex, size: number, words: string[]): Uint32Array {
	const mask = new Uint32Array(size);
	words.forEach((word, bit) => index.forEachBeginning(word, (entry) => (mask[entry] |= 1 << bit)));
	return mask;
}

export function compileFilters(ds: Dataset, filters: KnownFilters): CompiledFilters {
	const f = normalizeFilters(filters);

	let titleMask: Uint8Array | null = null;
	if (f.title || f.seniority || f.department) {
		const titles = f.title ? titlesMatching(ds, f.title) : null;
		const seniorities = f.seniority ? new Set<string>(f.seniority) : null;
		const departments = f.department ? new Set(f.department.map(fold)) : null;
		titleMask = maskOf(ds.titles.length, (t) => {
			const entry = ds.titles[t];
			if (titles && titles[t] === 0) return false;
			if (seniorities && !seniorities.has(entry.seniority)) return false;
			if (departments && !departments.has(entry.department)) return false;
			return true;
		});
	}

	let companyMask: Uint8Array | null = null;
	const { revenue_range: revenueRanges, employee_count_min: minEmployees } = f;
	if (
		f.industry ||
		f.tech_stack ||
		f.company_size ||
		f.funding_stage ||
		revenueRanges ||
		minEmployees !== undefined
	) {
		const industries = f.industry ? new Set(f.industry.map(fold)) : null;
		let techBits = 0;
		for (const tech of f.tech_stack ?? []) {
			const bit = TECHNOLOGIES.indexOf(fold(tech));
			if (bit >= 0) techBits |= 1 << bit;
		}
		const [, min, max] = f.company_size ? (COMPANY_SIZE_PATTERN.exec(f.company_size) ?? []) : [];
		const stages = f.funding_stage ? new Set(f.funding_stage) : null;
		const revenues = revenueRanges ? new Set<string>(revenueRanges) : null;
		companyMask = maskOf(ds.companyCount, (c) => {
			if (industries && !industries.has(ds.industryOf(c))) return false;
			if (f.tech_stack && (ds.companyTech[c] & techBits) === 0) return false;
			if (min !== undefined && (ds.companySize[c] < Number(min) || ds.companySize[c] > Number(max)))
				return false;
			if (stages && !stages.has(ds.fundingStageOf(c))) return false;
			if (revenues && !revenues.has(revenueRangeOf(ds.companySize[c]))) return false;
			if (minEmployees !== undefined && ds.companySize[c] < minEmployees) return false;
			return true;
		});
	}

	let cityMask: Uint8Array | null = null;
	if (f.country) {
		const countries = new Set(f.country.map((code) => code.toUpperCase()));
		cityMask = maskOf(ds.cities.length, (c) => countries.has(ds.cities[c].country));
	}

	let keywords: KeywordMasks | null = null;
	if (f.keywords) {
		const words = keywordWords(f.keywords).slice(0, FILTER_CAPS.keywordWords);
		const indexes = vocabularyIndexes(ds);
		keywords = {
			first: keywordMask(indexes.first, ds.firstNameWords.length, words),
			last: keywordMask(indexes.last, ds.lastNameWords.length, words),
			title: keywordMask(indexes.title, ds.titles.length, words),
			company: keywordMask(indexes.company, ds.companyWords.length, words),
			city: keywordMask(indexes.city, ds.cities.length, words),
			all: words.length === 32 ? 0xffffffff : (1 << words.length) - 1,
		};
	}

	return { key: canonicalJson(f), titleMask, companyMask, cityMask, keywords };
}

/** Whether one contact matches. */
export function matchesAt(ds: Dataset, f: CompiledFilters, i: number): boolean {
	if (f.titleMask !== null && f.titleMask[ds.title[i]] === 0) return false;
	if (f.companyMask !== null && f.companyMask[ds.company[i]] === 0) return false;
	if (f.cityMask !== null && f.cityMask[ds.city[i]] === 0) return false;
	const k = f.keywords;
	if (k !== null) {
		const bits =
			k.first[ds.first[i]] |
			k.last[ds.last[i]] |
			k.title[ds.title[i]] |
			k.company[ds.company[i]] |
			k.city[ds.city[i]];
		if (bits >>> 0 !== k.all) return false;
	}
	return true;
}

/**
 * Scans contacts from `from` on: counts every match and appends up to `max` of their indexes
 * to `out` (pass max 0 to count only). Stops early once `max` are collected and `countAll` is false.
 * `next` is the position after the last collected match when `max` were collected, else ds.size.
 */
export function scan(
	ds: Dataset,
	f: CompiledFilters,
	from: number,
	max: number,
	out: number[],
	countAll: boolean,
): { count: number; next: number } {
	const titles = ds.title;
	const companies = ds.company;
	const cities = ds.city;
	const firsts = ds.first;
	const lasts = ds.last;
	const tm = f.titleMask;
	const cm = f.companyMask;
	const ctm = f.cityMask;
	const k = f.keywords;
	const size = ds.size;
	const stop = out.length + max;
	let count = 0;
	// Where a next page would start: after the last collected match, or the end.
	let next = size;
	for (let i = from; i < size; i++) {
		if (tm !== null && tm[titles[i]] === 0) continue;
		if (cm !== null && cm[companies[i]] === 0) continue;
		if (ctm !== null && ctm[cities[i]] === 0) continue;
		if (k !== null) {
			const bits =
				k.first[firsts[i]] |
				k.last[lasts[i]] |
				k.title[titles[i]] |
				k.company[companies[i]] |
				k.city[cities[i]];
			if (bits >>> 0 !== k.all) continue;
		}
		count++;
		if (out.length < stop) {
			out.push(i);
			if (out.length === stop) {
				if (!countAll) return { count, next: i + 1 };
				next = i + 1;
			}
		}
	}
	return { count, next };
}

/** Counts of matches, cached per filters and data version (paging re-asks for the same total). */
export class MatchCounter {
	private readonly cache = new Map<string, number>();

	constructor(private readonly ds: Dataset) {}

	count(f: CompiledFilters): number {
		const cached = this.cached(f);
		if (cached !== undefined) return cached;
		const { count } = scan(this.ds, f, 0, 0, [], true);
		this.remember(f, count);
		return count;
	}

	cached(f: CompiledFilters): number | undefined {
		return this.cache.get(`${this.ds.version}:${f.key}`);
	}

	/** Stores a count found by a full scan made for another reason (a first page). */
	remember(f: CompiledFilters, count: number): void {
		if (this.cache.size >= 512) this.cache.delete(this.cache.keys().next().value as string);
		this.cache.set(`${this.ds.version}:${f.key}`, count);
	}
}

/** A short digest of canonical filters, carried in cursors. */
export function filtersDigest(f: CompiledFilters): string {
	return createHash('sha256').update(f.key).digest('base64url').slice(0, 16);
}
