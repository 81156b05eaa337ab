/** The API's answers, read tolerantly: the API adds fields and enum values in the same version. */
import { z } from 'zod';

import {
	EMAIL_STATUSES,
	EXPORT_FORMATS,
	REFUND_REASONS,
	REFUND_STATUSES,
	TIERS,
	UNLOCK_LEVELS,
	USAGE_OPERATIONS,
} from './enums';

/** An object in an answer: the fields the node reads, and any added since passed through. */
export function openObject<T extends z.ZodRawShape>(shape: T) {
	return z.object(shape).passthrough();
}

/** An enum in an answer: one of `values`, or a value added since, passed through as it came. */
export function openEnum<T extends readonly [string, ...string[]]>(values: T) {
	return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<
		T[number] | (string & {}),
		z.ZodTypeDef,
		unknown
	>;
}

export const contactPreviewSchema = openObject({
	id: z.string(),
	first_name: z.string().nullable(),
	last_name: z.string().nullable(),
	title: z.string().nullable(),
	seniority: z.string().nullable(),
	department: z.string().nullable(),
	company: openObject({
		name: z.string().nullable(),
		domain: z.string().nullable(),
		industry: z.string().nullable(),
		size: z.number().nullable(),
		funding_stage: z.string().nullable(),
		tech_stack: z.array(z.string()),
	}),
	location: openObject({
		country: z.string().nullable(),
		region: z.string().nullable(),
		city: z.string().nullable(),
	}),
	has_email: z.boolean(),
	has_phone: z.boolean(),
	unlocked: z.boolean(),
});
export type ContactPreview = z.infer<typeof contactPreviewSchema>;

export const unlockedContactSchema = contactPreviewSchema.extend({
	level: openEnum(UNLOCK_LEVELS),
	email: z.string().nullable(),
	email_status: openEnum(EMAIL_STATUSES).nullable(),
	linkedin_url: z.string().nullable(),
	unlocked_at: z.string(),
	phone: z.string().nullable().optional(),
	mobile_phone: z.string().nullable().optional(),
	work_history: z
		.array(
			openObject({
				title: z.string().nullable(),
				company: z.string().nullable(),
				start: z.string().nullable(),
				end: z.string().nullable(),
			}),
		)
		.optional(),
});
export type UnlockedContact = z.infer<typeof unlockedContactSchema>;

export const searchResponseSchema = openObject({
	results: z.array(contactPreviewSchema),
	total: z.number(),
	next_cursor: z.string().nullable(),
	truncated: z.boolean(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

/** A search page checked for its page fields and ids only: checking all cost more than the rest. */
export const searchPageSchema = searchResponseSchema.extend({
	results: z.array(contactPreviewSchema.pick({ id: true })),
});
export type SearchPage = z.infer<typeof searchPageSchema>;

export const unlockEntryErrorSchema = openObject({
	id: z.string(),
	error: openObject({ code: z.string(), message: z.string() }),
});
export type UnlockEntryError = z.infer<typeof unlockEntryErrorSchema>;

/** A charged call's contact, by its id only: the credits are spent; no odd field undoes that. */
const chargedContactSchema = unlockedContactSchema.pick({ id: true });

export const unlockResponseSchema = openObject({
	contacts: z.array(z.union([unlockEntryErrorSchema, chargedContactSchema])),
	credits_charged: z.number(),
	credits_remaining: z.number(),
});
export type UnlockResponse = z.infer<typeof unlockResponseSchema>;

export const enrichResponseSchema = openObject({
	contact: chargedContactSchema,
	credits_charged: z.number(),
	credits_remaining: z.number(),
});
export type EnrichResponse = z.infer<typeof enrichResponseSchema>;

/** A charging answer as read: the credit policy judges the charge, keeping the records paid for. */
const chargeAsRead = { credits_charged: z.unknown(), credits_remaining: z.unknown() };
export const unlockAnswerSchema = unlockResponseSchema.extend(chargeAsRead);
export type UnlockAnswer = z.infer<typeof unlockAnswerSchema>;
export const enrichAnswerSchema = enrichResponseSchema.extend(chargeAsRead);
export type EnrichAnswer = z.infer<typeof enrichAnswerSchema>;

export const savedListSchema = openObject({
	id: z.string(),
	name: z.string(),
	filters: z.record(z.unknown()).nullable(),
	contact_count: z.number(),
	created_at: z.string(),
	updated_at: z.string(),
});
export type SavedList = z.infer<typeof savedListSchema>;

export const savedListsPageSchema = openObject({
	lists: z.array(savedListSchema),
	next_cursor: z.string().nullable(),
});
export type SavedListsPage = z.infer<typeof savedListsPageSchema>;

export const listContactsAddedSchema = openObject({ added: z.number(), contact_count: z.number() });
export const listContactsRemovedSchema = openObject({
	removed: z.number(),
	contact_count: z.number(),
});
export type ListContactsAdded = z.infer<typeof listContactsAddedSchema>;
export type ListContactsRemoved = z.infer<typeof listContactsRemovedSchema>;

export const exportUrlResponseSchema = openObject({
	url: z.string(),
	expires_at: z.string(),
	format: openEnum(EXPORT_FORMATS),
	contact_count: z.number(),
});
export type ExportUrlResponse = z.infer<typeof exportUrlResponseSchema>;

export const refundSchema = openObject({
	id: z.string(),
	contact_id: z.string(),
	reason: openEnum(REFUND_REASONS),
	status: openEnum(REFUND_STATUSES),
	credits_refunded: z.number(),
	created_at: z.string(),
});
export type Refund = z.infer<typeof refundSchema>;

export const balanceSchema = openObject({
	balance: z.number(),
	tier: openEnum(TIERS),
	usage: z.array(
		openObject({
			at: z.string(),
			operation: openEnum(USAGE_OPERATIONS),
			contact_id: z.string(),
			credits: z.number(),
		}),
	),
	refunds: z.array(refundSchema),
});
export type Balance = z.infer<typeof balanceSchema>;
