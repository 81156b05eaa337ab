/** The API's answers, read tolerantly: the API adds fields and enum values without a version bump. */
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

/** An enum in an answer: one of `values`, or a value added since, passed through as it came. */
export function openEnum<T extends readonly [string, ...string[]]>(values: T) {
	return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<
		T[number] | (string & {}),
		z.ZodTypeDef,
		unknown
	>;
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
			.object({
				country: z.string().nullable(),
				region: z.string().nullable(),
				city: z.string().nullable(),
			})
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
 * A search page as a client checks it: the page fields and each contact's id, the rest passed
 * through (checking every field cost more than the rest of the node's handling of a search).
 */
export const searchPageSchema = searchResponseSchema.extend({
	results: z.array(contactPreviewSchema.pick({ id: true }).passthrough()),
});
export type SearchPage = z.infer<typeof searchPageSchema>;

export const unlockEntryErrorSchema = z
	.object({
		id: z.string(),
		error: z.object({ code: z.string(), message: z.string() }).passthrough(),
	})
	.passthrough();
export type UnlockEntryError = z.infer<typeof unlockEntryErrorSchema>;

/** A contact a charged call answers, by its id only: the credits are spent, an odd field must not undo that. */
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
	.object({
		contact: chargedContactSchema,
		credits_charged: z.number(),
		credits_remaining: z.number(),
	})
	.passthrough();
export type EnrichResponse = z.infer<typeof enrichResponseSchema>;

/** A charging answer as a client reads it: the credit policy judges the charge, keeping the records paid for. */
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
