/**
 * Contact records as the API returns them, built on demand from the data set's columns:
 * the preview (search results, list members not unlocked, events) and the unlocked record at
 * `basic` or `premium` level. Field paths (`company.name`) serve exports' field selection.
 */
import type { UnlockLevel } from '../nodes/ContactData/shared/client/contract';
import type { Dataset } from './data.cjs';

/** How an account holds a contact. */
export interface Holding {
	level: UnlockLevel;
	/** ISO time of the first unlock. */
	at: string;
}

export type RecordLevel = 'preview' | UnlockLevel;

/** Levels from least to most shown. */
export const LEVEL_RANK: Record<RecordLevel, number> = { preview: 0, basic: 1, premium: 2 };

export function levelOf(holding: Holding | undefined): RecordLevel {
	return holding ? holding.level : 'preview';
}

type Getter = (ds: Dataset, index: number, holding: Holding | undefined) => unknown;

interface FieldDefinition {
	path: string;
	level: RecordLevel;
	get: Getter;
}

const company = (ds: Dataset, index: number) => ds.company[index];

/** Every leaf field of a record, in record order, with the level that first shows it. */
export const FIELDS: FieldDefinition[] = [
	{ path: 'id', level: 'preview', get: (ds, i) => ds.idOf(i) },
	{ path: 'first_name', level: 'preview', get: (ds, i) => ds.firstNames[ds.first[i]] },
	{
		path: 'last_name',
		level: 'preview',
		get: (ds, i, holding) => ds.lastName(i, holding !== undefined),
	},
	{ path: 'title', level: 'preview', get: (ds, i) => ds.titles[ds.title[i]].title },
	{ path: 'seniority', level: 'preview', get: (ds, i) => ds.titles[ds.title[i]].seniority },
	{ path: 'department', level: 'preview', get: (ds, i) => ds.titles[ds.title[i]].department },
	{ path: 'company.name', level: 'preview', get: (ds, i) => ds.companyName[company(ds, i)] },
	{ path: 'company.domain', level: 'preview', get: (ds, i) => ds.companyDomain[company(ds, i)] },
	{ path: 'company.industry', level: 'preview', get: (ds, i) => ds.industryOf(company(ds, i)) },
	{ path: 'company.size', level: 'preview', get: (ds, i) => ds.companySize[company(ds, i)] },
	{
		path: 'company.funding_stage',
		level: 'preview',
		get: (ds, i) => ds.fundingStageOf(company(ds, i)),
	},
	{
		path: 'company.tech_stack',
		level: 'preview',
		get: (ds, i) => ds.companyTechList[company(ds, i)],
	},
	{ path: 'location.country', level: 'preview', get: (ds, i) => ds.cities[ds.city[i]].country },
	{ path: 'location.region', level: 'preview', get: (ds, i) => ds.cities[ds.city[i]].region },
	{ path: 'location.city', level: 'preview', get: (ds, i) => ds.cities[ds.city[i]].city },
	{ path: 'has_email', level: 'preview', get: (ds, i) => ds.hasEmail(i) },
	{ path: 'has_phone', level: 'preview', get: (ds, i) => ds.hasPhone(i) },
	{ path: 'unlocked', level: 'preview', get: (_ds, _i, holding) => holding !== undefined },
	{ path: 'level', level: 'basic', get: (_ds, _i, holding) => holding?.level ?? null },
	{ path: 'email', level: 'basic', get: (ds, i) => ds.email(i) },
	{ path: 'email_status', level: 'basic', get: (ds, i) => ds.emailStatus(i) },
	{ path: 'linkedin_url', level: 'basic', get: (ds, i) => ds.linkedinUrl(i) },
	{ path: 'unlocked_at', level: 'basic', get: (_ds, _i, holding) => holding?.at ?? null },
	{ path: 'phone', level: 'premium', get: (ds, i) => ds.phone(i) },
	{ path: 'mobile_phone', level: 'premium', get: (ds, i) => ds.mobilePhone(i) },
	{ path: 'work_history', level: 'premium', get: (ds, i) => ds.workHistory(i) },
];

const FIELD_BY_PATH = new Map(FIELDS.map((field) => [field.path, field]));
/** Object-valued paths that may also be selected whole. */
const GROUPS = ['company', 'location'];

/** Whether an export may name this field path. */
export function isFieldPath(path: string): boolean {
	return FIELD_BY_PATH.has(path) || GROUPS.includes(path);
}

/** The field paths of a record at a level (an export's default columns). */
export function fieldPathsAt(level: RecordLevel): string[] {
	return FIELDS.filter((field) => LEVEL_RANK[field.level] <= LEVEL_RANK[level]).map(
		(field) => field.path,
	);
}

/**
 * A reader of one field path: its value for a contact held at a level, or null when the level
 * does not show the field.
 */
export function fieldReader(
	path: string,
): (ds: Dataset, index: number, holding: Holding | undefined) => unknown {
	const field = FIELD_BY_PATH.get(path);
	if (field) {
		const rank = LEVEL_RANK[field.level];
		if (rank === 0) return field.get;
		return (ds, index, holding) =>
			holding && LEVEL_RANK[holding.level] >= rank ? field.get(ds, index, holding) : null;
	}
	const members = FIELDS.filter((candidate) => candidate.path.startsWith(`${path}.`));
	return (ds, index, holding) =>
		Object.fromEntries(
			members.map((member) => [member.path.slice(path.length + 1), member.get(ds, index, holding)]),
		);
}

/** The preview of a contact: what search results, events and exports of unheld members show. */
export function previewRecord(
	ds: Dataset,
	index: number,
	unlocked: boolean,
): Record<string, unknown> {
	const c = ds.company[index];
	const title = ds.titles[ds.title[index]];
	const city = ds.cities[ds.city[index]];
	return {
		id: ds.idOf(index),
		first_name: ds.firstNames[ds.first[index]],
		last_name: ds.lastName(index, false),
		title: title.title,
		seniority: title.seniority,
		department: title.department,
		company: {
			name: ds.companyName[c],
			domain: ds.companyDomain[c],
			industry: ds.industryOf(c),
			size: ds.companySize[c],
			funding_stage: ds.fundingStageOf(c),
			tech_stack: ds.companyTechList[c],
		},
		location: { country: city.country, region: city.region, city: city.city },
		has_email: ds.hasEmail(index),
		has_phone: ds.hasPhone(index),
		unlocked,
	};
}

/** The record of a contact as an account holds it: a preview, or the unlocked record at its level. */
export function contactRecord(
	ds: Dataset,
	index: number,
	holding: Holding | undefined,
): Record<string, unknown> {
	const record = previewRecord(ds, index, holding !== undefined);
	if (!holding) return record;
	record.last_name = ds.lastName(index, true);
	record.level = holding.level;
	record.email = ds.email(index);
	record.email_status = ds.emailStatus(index);
	record.linkedin_url = ds.linkedinUrl(index);
	record.unlocked_at = holding.at;
	if (holding.level === 'premium') {
		record.phone = ds.phone(index);
		record.mobile_phone = ds.mobilePhone(index);
		record.work_history = ds.workHistory(index);
	}
	return record;
}

/** The title and company of a contact, as a webhook event's `changes` side. */
export function jobOf(
	ds: Dataset,
	index: number,
): { title: string; company: { name: string; domain: string } } {
	const c = ds.company[index];
	return {
		title: ds.titles[ds.title[index]].title,
		company: { name: ds.companyName[c], domain: ds.companyDomain[c] },
	};
}
