/**
 * CSV cells (RFC 4180) and fast column writers for exports: fields that come from a vocabulary
 * (names, titles, companies, cities) are escaped once per vocabulary entry, so a row is a handful
 * of array lookups.
 */
import type { Dataset } from './data.cjs';
import { fieldReader, type Holding } from './records.cjs';

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV cell: arrays of strings joined with ";", other objects as JSON text, null empty. */
export function csvCell(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string')
		return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
		return csvCell(value.join(';'));
	return csvCell(JSON.stringify(value));
}

export type CsvColumn = (index: number, holding: Holding | undefined) => string;

interface Tables {
	firstName: string[];
	lastName: string[];
	lastInitial: string[];
	title: string[];
	seniority: string[];
	department: string[];
	companyName: string[];
	companyDomain: string[];
	companyIndustry: string[];
	companySize: string[];
	companyFunding: string[];
	companyTech: string[];
	country: string[];
	region: string[];
	city: string[];
}

const tablesCache = new WeakMap<Dataset, Tables>();

/** Escaped cells per vocabulary entry (companies never change, so the tables are built once). */
export function tablesOf(ds: Dataset): Tables {
	let tables = tablesCache.get(ds);
	if (!tables) {
		const companies = Array.from({ length: ds.companyCount }, (_, c) => c);
		tables = {
			firstName: ds.firstNames.map(csvCell),
			lastName: ds.lastNames.map(csvCell),
			lastInitial: ds.lastNames.map((name) => csvCell(`${name.charAt(0)}.`)),
			title: ds.titles.map((entry) => csvCell(entry.title)),
			seniority: ds.titles.map((entry) => entry.seniority),
			department: ds.titles.map((entry) => entry.department),
			companyName: ds.companyName.map(csvCell),
			companyDomain: ds.companyDomain.map(csvCell),
			companyIndustry: companies.map((c) => ds.industryOf(c)),
			companySize: companies.map((c) => String(ds.companySize[c])),
			companyFunding: companies.map((c) => ds.fundingStageOf(c)),
			companyTech: ds.companyTechList.map(csvCell),
			country: ds.cities.map((entry) => csvCell(entry.country)),
			region: ds.cities.map((entry) => csvCell(entry.region)),
			city: ds.cities.map((entry) => csvCell(entry.city)),
		};
		tablesCache.set(ds, tables);
	}
	return tables;
}

/** The writer of one column: vocabulary lookups where possible, else the field's reader. */
export function csvColumn(ds: Dataset, path: string): CsvColumn {
	const t = tablesOf(ds);
	const { first, last, title, company, city } = ds;
	switch (path) {
		case 'id':
			return (i) => ds.idOf(i);
		case 'first_name':
			return (i) => t.firstName[first[i]];
		case 'last_name':
			return (i, holding) => (holding ? t.lastName[last[i]] : t.lastInitial[last[i]]);
		case 'title':
			return (i) => t.title[title[i]];
		case 'seniority':
			return (i) => t.seniority[title[i]];
		case 'department':
			return (i) => t.department[title[i]];
		case 'company.name':
			return (i) => t.companyName[company[i]];
		case 'company.domain':
			return (i) => t.companyDomain[company[i]];
		case 'company.industry':
			return (i) => t.companyIndustry[company[i]];
		case 'company.size':
			return (i) => t.companySize[company[i]];
		case 'company.funding_stage':
			return (i) => t.companyFunding[company[i]];
		case 'company.tech_stack':
			return (i) => t.companyTech[company[i]];
		case 'location.country':
			return (i) => t.country[city[i]];
		case 'location.region':
			return (i) => t.region[city[i]];
		case 'location.city':
			return (i) => t.city[city[i]];
		case 'has_email':
			return (i) => (ds.hasEmail(i) ? 'true' : 'false');
		case 'has_phone':
			return (i) => (ds.hasPhone(i) ? 'true' : 'false');
		case 'unlocked':
			return (_i, holding) => (holding ? 'true' : 'false');
		default: {
			const read = fieldReader(path);
			return (i, holding) => csvCell(read(ds, i, holding));
		}
	}
}
