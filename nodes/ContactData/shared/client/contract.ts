/**
 * The wire contract of the Contact Data API (v1), in one place.
 *
 * The vendor's specification leaves most wire details open; `docs/contract.md` fixes them and this
 * module is its code form. The nodes, the triggers, the credential and the sandbox all read paths,
 * id prefixes and patterns, field names, enums, limits and body shapes from here, so a change the
 * vendor publishes is one edit (test/contract.single-source.test.ts keeps it so).
 *
 * Response schemas pass unknown fields through: the API adds fields without a version bump.
 */
import { createHmac } from 'node:crypto';
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

export const API_PREFIX = '/v1';

/**
 * Every path of the API as a template: `:id` stands for the id a call is about. The sandbox routes
 * by these; clients fill them in through PATHS.
 */
export const PATH_TEMPLATES = {
	search: `${API_PREFIX}/search`,
	unlock: `${API_PREFIX}/unlock`,
	enrich: `${API_PREFIX}/enrich`,
	lists: `${API_PREFIX}/lists`,
	list: `${API_PREFIX}/lists/:id`,
	listContacts: `${API_PREFIX}/lists/:id/contacts`,
	listExport: `${API_PREFIX}/lists/:id/export`,
	/** A bulk export's signed download (the query carries its expiry and signature). */
	exportDownload: `${API_PREFIX}/exports/:id`,
	webhooks: `${API_PREFIX}/webhooks`,
	webhook: `${API_PREFIX}/webhooks/:id`,
	creditsBalance: `${API_PREFIX}/credits/balance`,
	creditsRefund: `${API_PREFIX}/credits/refund`,
} as const;
export type Endpoint = keyof typeof PATH_TEMPLATES;

/** A template with its id filled in (escaped: an id cannot change the path). */
function pathOf(endpoint: Endpoint, id: string): string {
	return PATH_TEMPLATES[endpoint].replace(':id', encodeURIComponent(id));
}

export const PATHS = {
	search: PATH_TEMPLATES.search,
	unlock: PATH_TEMPLATES.unlock,
	enrich: PATH_TEMPLATES.enrich,
	lists: PATH_TEMPLATES.lists,
	list: (listId: string) => pathOf('list', listId),
	listContacts: (listId: string) => pathOf('listContacts', listId),
	listExport: (listId: string) => pathOf('listExport', listId),
	exportDownload: (exportId: string) => pathOf('exportDownload', exportId),
	webhooks: PATH_TEMPLATES.webhooks,
	webhook: (webhookId: string) => pathOf('webhook', webhookId),
	creditsBalance: PATH_TEMPLATES.creditsBalance,
	creditsRefund: PATH_TEMPLATES.creditsRefund,
} as const;

/**
 * The values of a template's `:name` parts in `path` (decoded), or `null` when the path is not one
 * of the template's.
 */
export function matchPathTemplate(template: string, path: string): Record<string, string> | null {
	const templateParts = template.split('/');
	const pathParts = path.split('/');
	if (templateParts.length !== pathParts.length) return null;
	const params: Record<string, string> = {};
	for (let i = 0; i < templateParts.length; i++) {
		const part = templateParts[i];
		if (!part.startsWith(':')) {
			if (part !== pathParts[i]) return null;
			continue;
		}
		if (pathParts[i] === '') return null;
		try {
			params[part.slice(1)] = decodeURIComponent(pathParts[i]);
		} catch {
			return null;
		}
	}
	return params;
}

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------

export const SENIORITIES = [
	'owner',
	'founder',
	'c_suite',
	'partner',
	'vp',
	'head',
	'director',
	'manager',
	'senior',
	'entry',
	'intern',
] as const;
export type Seniority = (typeof SENIORITIES)[number];

export const FUNDING_STAGES = [
	'pre_seed',
	'seed',
	'series_a',
	'series_b',
	'series_c',
	'series_d',
	'series_e',
	'series_f',
	'series_g',
	'series_h',
	'series_i',
	'series_j',
	'private_equity',
	'debt',
	'ipo',
	'acquired',
	'bootstrapped',
] as const;
export type FundingStage = (typeof FUNDING_STAGES)[number];

/**
 * Values of the free-text filters that the service documents (its snake_case identifiers). The
 * service knows more; any other value is still sent.
 */
export const KNOWN_DEPARTMENTS = [
	'engineering',
	'sales',
	'marketing',
	'product',
	'design',
	'data',
	'finance',
	'operations',
	'human_resources',
	'legal',
	'customer_success',
	'information_technology',
	'executive',
] as const;

export const KNOWN_INDUSTRIES = [
	'software', 'information_technology', 'financial_services', 'healthcare', 'biotechnology', 'retail',
	'e_commerce', 'manufacturing', 'education', 'media', 'telecommunications', 'real_estate', 'logistics',
	'energy', 'consulting', 'insurance', 'automotive', 'hospitality', 'marketing_and_advertising', 'government',
	'nonprofit', 'legal_services', 'construction', 'food_and_beverage', 'gaming', 'cybersecurity', 'aerospace',
	'agriculture', 'pharmaceuticals', 'venture_capital',
] as const;

export const KNOWN_TECH_STACK = [
	'aws', 'gcp', 'azure', 'snowflake', 'databricks', 'react', 'angular', 'vue', 'node.js', 'python', 'java',
	'go', 'ruby on rails', 'kubernetes', 'docker', 'terraform', 'postgresql', 'mysql', 'mongodb', 'redis',
	'kafka', 'salesforce', 'hubspot', 'marketo', 'zendesk', 'intercom', 'segment', 'stripe', 'shopify', 'slack',
	'jira', 'datadog',
] as const;

/** Account tiers, low to high. Below `growth` every endpoint answers 403 `tier_required`. */
export const TIERS = ['free', 'starter', 'growth', 'scale', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];
export const MIN_API_TIER: Tier = 'growth';

export const UNLOCK_LEVELS = ['basic', 'premium'] as const;
export type UnlockLevel = (typeof UNLOCK_LEVELS)[number];

export const EMAIL_STATUSES = ['verified', 'guessed'] as const;

export const REFUND_REASONS = ['bounced_email', 'wrong_phone', 'wrong_title'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const REFUND_STATUSES = ['approved', 'pending', 'rejected'] as const;

export const EVENT_TYPES = ['job_change', 'role_change', 'intent'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_DELIVERIES = ['inline', 'url'] as const;
export type ExportDelivery = (typeof EXPORT_DELIVERIES)[number];

export const USAGE_OPERATIONS = ['unlock', 'enrich'] as const;

// ---------------------------------------------------------------------------------------------
// Limits, prices and timings
// ---------------------------------------------------------------------------------------------

export const LIMITS = {
	/** Distinct ids in one `POST /v1/unlock` (413 `too_many_ids` past it). */
	idsPerUnlock: 100,
	/** Search page size. */
	searchLimitMin: 1,
	searchLimitMax: 100,
	searchLimitDefault: 25,
	/** A search can be paged through its first 10,000 results; a saved list holds the rest. */
	searchPagingCap: 10_000,
	/** `GET /v1/lists` page size. */
	listsLimitMax: 100,
	listsLimitDefault: 25,
	listNameMaxLength: 200,
	/** `contact_ids` when creating a list. */
	listCreateIdsMax: 1_000,
	/** `ids` when adding to or removing from a list (413 past it). */
	listIdsMax: 1_000,
	/** Lists of this many contacts or more are exported through a signed URL. */
	bulkExportThreshold: 100_000,
	idempotencyKeyMaxLength: 255,
	idempotencyWindowMs: 24 * 60 * 60 * 1000,
	exportUrlTtlMs: 60 * 60 * 1000,
	/** Entries of `usage` and `refunds` in the balance answer. */
	balanceHistory: 50,
	/** Refund claims approved at once per account. */
	autoApprovedRefunds: 100,
	intentScoreMin: 0,
	intentScoreMax: 100,
	/**
	 * The longest id a client sends (a contact, saved list or webhook id: a prefix and letters,
	 * digits, _ or -). The service's ids are far shorter; anything longer is refused before sending.
	 */
	idMaxLength: 64,
	/** The longest text value of a search filter (a job title, keywords…). */
	filterTextMaxLength: 1_000,
	/** The longest further filter (one the node does not name), as JSON. */
	filterValueMaxLength: 10_000,
} as const;

/** Credits charged per contact newly unlocked at a level. */
export const CREDIT_COST: Record<UnlockLevel, number> = { basic: 1, premium: 2 };

/** Rate-limit classes: requests per rolling minute, per key. Exports are unlimited. */
export const RATE_LIMITS = {
	search: 100,
	/** `POST /v1/unlock` and `POST /v1/enrich` together. */
	charged: 60,
	other: 600,
} as const;
export type RateLimitClass = keyof typeof RATE_LIMITS;
export const RATE_LIMIT_WINDOW_MS = 60_000;

export const HEADERS = {
	authorization: 'authorization',
	idempotencyKey: 'idempotency-key',
	rateLimitLimit: 'x-ratelimit-limit',
	rateLimitRemaining: 'x-ratelimit-remaining',
	/** Seconds (a number; the sandbox's scaled clock gives decimals) until a slot frees. */
	rateLimitReset: 'x-ratelimit-reset',
	retryAfter: 'retry-after',
	webhookId: 'webhook-id',
	webhookTimestamp: 'webhook-timestamp',
	webhookSignature: 'webhook-signature',
} as const;

/**
 * The calls outside the `other` class, by endpoint: `null` for calls that are not rate limited
 * (exports and export downloads, whatever the method).
 */
const RATE_LIMIT_CLASS_OF: ReadonlyArray<{ endpoint: Endpoint; method?: string; rateClass: RateLimitClass | null }> = [
	{ endpoint: 'search', method: 'POST', rateClass: 'search' },
	{ endpoint: 'unlock', method: 'POST', rateClass: 'charged' },
	{ endpoint: 'enrich', method: 'POST', rateClass: 'charged' },
	{ endpoint: 'listExport', rateClass: null },
	{ endpoint: 'exportDownload', rateClass: null },
];

/**
 * The rate-limit class of a request, or `null` for calls that are not rate limited
 * (exports and export downloads).
 */
export function rateLimitClassOf(method: string, path: string): RateLimitClass | null {
	const upper = method.toUpperCase();
	const entry = RATE_LIMIT_CLASS_OF.find(
		(candidate) =>
			(candidate.method === undefined || candidate.method === upper) &&
			matchPathTemplate(PATH_TEMPLATES[candidate.endpoint], path) !== null,
	);
	return entry ? entry.rateClass : 'other';
}

export const WEBHOOKS = {
	secretPrefix: 'whsec_',
	/** Signatures older or newer than this are refused. */
	toleranceSeconds: 5 * 60,
	/** A delivery without a 2xx within this time counts as failed. */
	deliveryTimeoutMs: 10_000,
	/** Delivery attempts in all (the first and its retries), over about a minute. */
	deliveryAttempts: 5,
} as const;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

export const ERROR_CODES = {
	invalid_request: 400,
	unauthorized: 401,
	insufficient_credits: 402,
	tier_required: 403,
	not_found: 404,
	method_not_allowed: 405,
	conflict: 409,
	too_many_ids: 413,
	rate_limited: 429,
	internal: 500,
	unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** Statuses after which an idempotent call may be sent again. */
export const TRANSIENT_STATUSES = [429, 500, 502, 503, 504] as const;

// ---------------------------------------------------------------------------------------------
// Ids
// ---------------------------------------------------------------------------------------------

export const ID_PREFIXES = {
	contact: 'ct_',
	list: 'ls_',
	webhook: 'wh_',
	refund: 'rf_',
	event: 'evt_',
} as const;

/**
 * A saved list id as clients check it before putting it in a path: the prefix and the characters the
 * service's ids are made of. Dots and slashes would change the path (`..` is the parent route).
 */
export const LIST_ID_PATTERN = new RegExp(`^${ID_PREFIXES.list}[A-Za-z0-9_-]+$`);

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

const nonEmptyString = z.string().min(1);
const filterText = z.string().max(LIMITS.filterTextMaxLength);
const stringList = z.array(filterText.min(1));

export const COMPANY_SIZE_PATTERN = /^(\d+)-(\d+)$/;

/** The named search filters. The service has 270+ more; see `searchFiltersSchema`. */
export const knownSearchFiltersShape = {
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
export const KNOWN_SEARCH_FILTERS = Object.keys(knownSearchFiltersShape) as Array<
	keyof typeof knownSearchFiltersShape
>;

/** Filters as a client sends them: the named ones checked, further filters passed through. */
export const searchFiltersSchema = z
	.object(knownSearchFiltersShape)
	.partial()
	.catchall(
		z.unknown().refine(
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

export const unlockRequestSchema = z.object({
	ids: z
		.array(contactIdSchema)
		.min(1)
		.refine((ids) => new Set(ids).size === ids.length, 'must not repeat an id'),
	level: z.enum(UNLOCK_LEVELS).default('basic'),
});
export type UnlockRequest = z.infer<typeof unlockRequestSchema>;

export const LINKEDIN_URL_PATTERN = /^https:\/\/(www\.)?linkedin\.com\/in\/[^/?#\s]+\/?$/i;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
export type CreateListRequest = z.infer<typeof createListRequestSchema>;

/** Body of adding contacts to, or removing them from, a saved list. */
export const listContactsRequestSchema = z.object({
	ids: z.array(contactIdSchema).min(1),
});

export const exportRequestSchema = z.object({
	format: z.enum(EXPORT_FORMATS).default('csv'),
	fields: z.array(nonEmptyString).min(1).optional(),
	delivery: z.enum(EXPORT_DELIVERIES).default('inline'),
	/** Only members the account holds unlocked (absent: false, every member). */
	unlocked_only: z.boolean().optional(),
});
export type ExportRequest = z.infer<typeof exportRequestSchema>;

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
export type RefundRequest = z.infer<typeof refundRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Responses, read tolerantly: unknown fields pass through, and so do enum values the contract
// does not list (the API adds both without a version bump). Requests above stay strict.
// ---------------------------------------------------------------------------------------------

/** An enum in an answer: one of `values`, or a value added since, passed through as it came. */
function openEnum<T extends readonly [string, ...string[]]>(values: T) {
	return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<T[number] | (string & {}), z.ZodTypeDef, unknown>;
}

export const contactPreviewSchema = z
	.object({
		id: z.string(),
		first_name: z.string().nullable(),
		last_name: z.string().nullable(),
		title: z.string().nullable(),
		seniority: z.string().nullable(),
		department: z.string().nullable(),
		company: z
			.object({
				name: z.string().nullable(),
				domain: z.string().nullable(),
				industry: z.string().nullable(),
				size: z.number().nullable(),
				funding_stage: z.string().nullable(),
				tech_stack: z.array(z.string()),
			})
			.passthrough(),
		location: z
			.object({ country: z.string().nullable(), region: z.string().nullable(), city: z.string().nullable() })
			.passthrough(),
		has_email: z.boolean(),
		has_phone: z.boolean(),
		unlocked: z.boolean(),
	})
	.passthrough();
export type ContactPreview = z.infer<typeof contactPreviewSchema>;

export const unlockedContactSchema = contactPreviewSchema
	.extend({
		level: openEnum(UNLOCK_LEVELS),
		email: z.string().nullable(),
		email_status: openEnum(EMAIL_STATUSES).nullable(),
		linkedin_url: z.string().nullable(),
		unlocked_at: z.string(),
		phone: z.string().nullable().optional(),
		mobile_phone: z.string().nullable().optional(),
		work_history: z
			.array(
				z
					.object({
						title: z.string().nullable(),
						company: z.string().nullable(),
						start: z.string().nullable(),
						end: z.string().nullable(),
					})
					.passthrough(),
			)
			.optional(),
	})
	.passthrough();
export type UnlockedContact = z.infer<typeof unlockedContactSchema>;

export const apiErrorBodySchema = z.object({
	error: z
		.object({
			code: z.string(),
			message: z.string(),
			details: z.record(z.unknown()).optional(),
		})
		.passthrough(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export const searchResponseSchema = z
	.object({
		results: z.array(contactPreviewSchema),
		total: z.number(),
		next_cursor: z.string().nullable(),
		truncated: z.boolean(),
	})
	.passthrough();
export type SearchResponse = z.infer<typeof searchResponseSchema>;

/**
 * A search page as a client checks it on the hot path: the page fields, and an id for each contact,
 * the rest of every contact passed through as it came. Checking each field of every contact of
 * every page cost more than the rest of the node's own handling of a search call.
 */
export const searchPageSchema = searchResponseSchema.extend({
	results: z.array(contactPreviewSchema.pick({ id: true }).passthrough()),
});
export type SearchPage = z.infer<typeof searchPageSchema>;

export const unlockEntryErrorSchema = z
	.object({ id: z.string(), error: z.object({ code: z.string(), message: z.string() }).passthrough() })
	.passthrough();
export type UnlockEntryError = z.infer<typeof unlockEntryErrorSchema>;

/**
 * A contact in the answer of a charged call as the node reads it: its id, the rest passed through
 * as it came. The credits are spent by then; a field the node does not read must not undo that.
 */
const chargedContactSchema = unlockedContactSchema.pick({ id: true }).passthrough();

export const unlockResponseSchema = z
	.object({
		contacts: z.array(z.union([unlockEntryErrorSchema, chargedContactSchema])),
		credits_charged: z.number(),
		credits_remaining: z.number(),
	})
	.passthrough();
export type UnlockResponse = z.infer<typeof unlockResponseSchema>;

export const enrichResponseSchema = z
	.object({ contact: chargedContactSchema, credits_charged: z.number(), credits_remaining: z.number() })
	.passthrough();
export type EnrichResponse = z.infer<typeof enrichResponseSchema>;

/**
 * A charging answer as a client reads it: the charge and the balance pass through unchecked here,
 * for the credit policy to judge (a charge the contract rules out is an unreadable answer there,
 * without losing the records the call paid for).
 */
const chargeAsRead = { credits_charged: z.unknown(), credits_remaining: z.unknown() };
export const unlockAnswerSchema = unlockResponseSchema.extend(chargeAsRead);
export type UnlockAnswer = z.infer<typeof unlockAnswerSchema>;
export const enrichAnswerSchema = enrichResponseSchema.extend(chargeAsRead);
export type EnrichAnswer = z.infer<typeof enrichAnswerSchema>;

export const savedListSchema = z
	.object({
		id: z.string(),
		name: z.string(),
		filters: z.record(z.unknown()).nullable(),
		contact_count: z.number(),
		created_at: z.string(),
		updated_at: z.string(),
	})
	.passthrough();
export type SavedList = z.infer<typeof savedListSchema>;

export const savedListsPageSchema = z
	.object({ lists: z.array(savedListSchema), next_cursor: z.string().nullable() })
	.passthrough();
export type SavedListsPage = z.infer<typeof savedListsPageSchema>;

export const listContactsAddedSchema = z
	.object({ added: z.number(), contact_count: z.number() })
	.passthrough();
export const listContactsRemovedSchema = z
	.object({ removed: z.number(), contact_count: z.number() })
	.passthrough();
export type ListContactsAdded = z.infer<typeof listContactsAddedSchema>;
export type ListContactsRemoved = z.infer<typeof listContactsRemovedSchema>;

export const exportUrlResponseSchema = z
	.object({
		url: z.string(),
		expires_at: z.string(),
		format: openEnum(EXPORT_FORMATS),
		contact_count: z.number(),
	})
	.passthrough();
export type ExportUrlResponse = z.infer<typeof exportUrlResponseSchema>;

export const webhookSchema = z
	.object({
		id: z.string(),
		url: z.string(),
		events: z.array(openEnum(EVENT_TYPES)),
		list_ids: z.array(z.string()).nullable(),
		created_at: z.string(),
		secret: z.string().optional(),
	})
	.passthrough();
export type Webhook = z.infer<typeof webhookSchema>;

export const webhooksPageSchema = z.object({ webhooks: z.array(webhookSchema) }).passthrough();
export type WebhooksPage = z.infer<typeof webhooksPageSchema>;

const changeSideSchema = z
	.object({
		title: z.string().nullable(),
		company: z.object({ name: z.string().nullable(), domain: z.string().nullable() }).passthrough(),
	})
	.passthrough();

export const webhookEventSchema = z
	.object({
		id: z.string().startsWith(ID_PREFIXES.event),
		type: z.enum(EVENT_TYPES),
		created_at: z.string(),
		list_id: z.string(),
		contact: contactPreviewSchema,
		changes: z.object({ previous: changeSideSchema, current: changeSideSchema }).passthrough().optional(),
		intent: z
			.object({
				topic: z.string(),
				score: z.number().min(LIMITS.intentScoreMin).max(LIMITS.intentScoreMax),
			})
			.passthrough()
			.optional(),
	})
	.passthrough();
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const refundSchema = z
	.object({
		id: z.string(),
		contact_id: z.string(),
		reason: openEnum(REFUND_REASONS),
		status: openEnum(REFUND_STATUSES),
		credits_refunded: z.number(),
		created_at: z.string(),
	})
	.passthrough();
export type Refund = z.infer<typeof refundSchema>;

export const balanceSchema = z
	.object({
		balance: z.number(),
		tier: openEnum(TIERS),
		usage: z.array(
			z
				.object({
					at: z.string(),
					operation: openEnum(USAGE_OPERATIONS),
					contact_id: z.string(),
					credits: z.number(),
				})
				.passthrough(),
		),
		refunds: z.array(refundSchema),
	})
	.passthrough();
export type Balance = z.infer<typeof balanceSchema>;

// ---------------------------------------------------------------------------------------------
// Webhook signatures (Standard Webhooks)
// ---------------------------------------------------------------------------------------------

/** The HMAC key of a `whsec_<base64>` secret. */
export function webhookSigningKey(secret: string): Buffer {
	const encoded = secret.startsWith(WEBHOOKS.secretPrefix)
		? secret.slice(WEBHOOKS.secretPrefix.length)
		: secret;
	return Buffer.from(encoded, 'base64');
}

/** `v1,<base64 HMAC-SHA256 over "<id>.<timestamp>.<raw body>">`. */
export function webhookSignature(
	secret: string,
	webhookId: string,
	timestampSeconds: number | string,
	rawBody: string | Buffer,
): string {
	const hmac = createHmac('sha256', webhookSigningKey(secret));
	hmac.update(`${webhookId}.${timestampSeconds}.`);
	hmac.update(rawBody);
	return `v1,${hmac.digest('base64')}`;
}
