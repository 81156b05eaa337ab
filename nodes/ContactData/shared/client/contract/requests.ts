/** The bodies clients send, checked strictly before sending (the sandbox checks them the same way). */
import { z } from 'zod';

import {
	EVENT_TYPES,
	EXPORT_DELIVERIES,
	EXPORT_FORMATS,
	FUNDING_STAGES,
	REFUND_REASONS,
	SENIORITIES,
	UNLOCK_LEVELS,
} from './enums';
import { ID_PREFIXES } from './ids';
import { LIMITS } from './limits';

const filterText = z.string().max(LIMITS.filterTextMaxLength);
const stringList = z.array(filterText.min(1));

export const COMPANY_SIZE_PATTERN = /^(\d+)-(\d+)$/;

/** The named search filters. The service has 270+ more; see `searchFiltersSchema`. */
const knownSearchFiltersShape = {
	title: stringList,
	seniority: z.array(z.enum(SENIORITIES)),
	industry: stringList,
	department: stringList,
	tech_stack: stringList,
	company_size: z
		.string()
		.regex(COMPANY_SIZE_PATTERN, 'must be "<min>-<max>" with whole numbers')
		.refine((value) => {
			const [, min, max] = COMPANY_SIZE_PATTERN.exec(value) ?? [];
			return Number(min) <= Number(max);
		}, 'min must not be greater than max'),
	funding_stage: z.array(z.enum(FUNDING_STAGES)),
	country: z.array(z.string().regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166 alpha-2 code')),
	keywords: filterText,
};

/** Filters as a client sends them: the named ones checked, further filters passed through. */
export const searchFiltersSchema = z
	.object(knownSearchFiltersShape)
	.partial()
	.catchall(
		z
			.unknown()
			.refine(
				(value) => (JSON.stringify(value) ?? '').length <= LIMITS.filterValueMaxLength,
				`is longer than ${LIMITS.filterValueMaxLength} characters as JSON`,
			),
	);
/** Filters as the sandbox accepts them: only the named ones (others are 400, as on the service). */
export const knownSearchFiltersSchema = z.object(knownSearchFiltersShape).partial().strict();
export type SearchFilters = z.infer<typeof searchFiltersSchema>;

export const searchRequestSchema = z.object({
	filters: searchFiltersSchema.default({}),
	limit: z.number().int().min(LIMITS.searchLimitMin).max(LIMITS.searchLimitMax).optional(),
	cursor: z.string().min(1).nullable().optional(),
});
export type SearchRequest = z.infer<typeof searchRequestSchema>;

export const contactIdSchema = z
	.string()
	.startsWith(ID_PREFIXES.contact, `must be a contact id (${ID_PREFIXES.contact}…)`)
	.max(LIMITS.idMaxLength);

/** The same rule without zod, for every id of every item: zod's took 0.1 s of 16,000 items' first call. */
export const isContactId = (id: unknown): boolean =>
	typeof id === 'string' && id.startsWith(ID_PREFIXES.contact) && id.length <= LIMITS.idMaxLength;

export const unlockRequestSchema = z.object({
	ids: z
		.array(contactIdSchema)
		.min(1)
		.refine((ids) => new Set(ids).size === ids.length, 'must not repeat an id'),
	level: z.enum(UNLOCK_LEVELS).default('basic'),
});

const LINKEDIN_URL_PATTERN = /^https:\/\/(www\.)?linkedin\.com\/in\/[^/?#\s]+\/?$/i;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const enrichRequestSchema = z
	.object({
		email: z.string().regex(EMAIL_PATTERN, 'must be an email address').nullable().optional(),
		linkedin_url: z
			.string()
			.regex(LINKEDIN_URL_PATTERN, 'must be https://www.linkedin.com/in/<handle>')
			.nullable()
			.optional(),
		level: z.enum(UNLOCK_LEVELS).default('basic'),
	})
	.passthrough()
	.refine((body) => Boolean(body.email) || Boolean(body.linkedin_url), {
		message: 'an email or a LinkedIn URL is required',
		path: ['email'],
	});
export type EnrichRequest = z.infer<typeof enrichRequestSchema>;

export const createListRequestSchema = z.object({
	name: z.string().min(1).max(LIMITS.listNameMaxLength),
	filters: searchFiltersSchema.nullable().optional(),
	contact_ids: z.array(contactIdSchema).max(LIMITS.listCreateIdsMax).optional(),
});

/** Body of adding contacts to, or removing them from, a saved list. */
export const listContactsRequestSchema = z.object({
	ids: z.array(contactIdSchema).min(1),
});

export const exportRequestSchema = z.object({
	format: z.enum(EXPORT_FORMATS).default('csv'),
	fields: z.array(z.string().min(1)).min(1).optional(),
	delivery: z.enum(EXPORT_DELIVERIES).default('inline'),
	/** Only members the account holds unlocked (absent: false, every member). */
	unlocked_only: z.boolean().optional(),
});

export const createWebhookRequestSchema = z.object({
	url: z.string().url(),
	events: z
		.array(z.enum(EVENT_TYPES))
		.min(1)
		.refine((events) => new Set(events).size === events.length, 'must not repeat an event'),
	list_ids: z.array(z.string().startsWith(ID_PREFIXES.list)).min(1).nullable().optional(),
});
export type CreateWebhookRequest = z.infer<typeof createWebhookRequestSchema>;

export const refundRequestSchema = z.object({
	contact_id: contactIdSchema,
	reason: z.enum(REFUND_REASONS),
	note: z.string().max(2_000).optional(),
});
