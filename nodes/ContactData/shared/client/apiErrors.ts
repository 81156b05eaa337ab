/**
 * API error answers in the user's words: the parameter behind the field the API names (as the
 * editor shows it, by the names the caller gives), the API's reason, and what to do next.
 */
import type { INode, JsonObject, NodeApiError } from 'n8n-workflow';

import { apiErrorBodySchema } from './contract';
import { apiFailure, type FailureKind } from './failures';

/**
 * How the editor names a request body's field, given by the layer that knows the parameters
 * (`undefined`: no parameter of its own, and the API's field is named as it is).
 */
export type FieldNames = (field: string) => string | undefined;

/** The parameter behind an API field, or the field itself ("filters.x" -> Filter "x"). */
function parameterOf(field: string, fieldNames: FieldNames | undefined): string {
	const named = fieldNames?.(field);
	if (named) return named;
	const filter = /^filters\.(.+)$/.exec(field);
	return filter ? `Filter "${filter[1]}"` : `Field "${field}"`;
}

/** What to do next, by error code: shown under the headline. */
const ERROR_ADVICE: Record<string, string> = {
	invalid_request: 'Check the parameter named above.',
	unauthorized:
		'The API key was refused: it is unknown or has been revoked. Update the API key in the Contact Data API credential.',
	insufficient_credits: 'This call was not charged. Buy credits or lower the number of contacts.',
	tier_required:
		'The API needs the Growth tier or higher. Upgrade the account that owns this API key.',
	not_found: 'Check the id. It may belong to another account or have been deleted.',
	conflict: 'This was already done once; the service refuses to do it twice.',
	too_many_ids: 'Send fewer ids per call.',
};

/**
 * An API error answer as a `NodeApiError`: the parameter behind the field (or, for an unknown id, the
 * parameter the path's id came from) and the API's reason as the headline; the API field itself in
 * the description.
 */
export function apiError(
	context: { getNode(): INode },
	statusCode: number,
	body: unknown,
	itemIndex?: number,
	pathParameter?: string,
	fieldNames?: FieldNames,
): NodeApiError {
	const parsed = apiErrorBodySchema.safeParse(body);
	const error = parsed.success ? parsed.data.error : undefined;
	const details = error?.details ?? {};
	const field = typeof details.field === 'string' ? details.field : undefined;
	// The sandbox and the service start a field's message with the field: said once, by its parameter.
	const reason = field && error ? error.message.replace(`${field}: `, '') : error?.message;
	const parameter = field
		? parameterOf(field, fieldNames)
		: error?.code === 'not_found'
			? pathParameter
			: undefined;
	const headline = error
		? parameter
			? `${parameter}: ${reason}`
			: error.message
		: `The Contact Data API answered ${statusCode}`;
	const advice: string[] = [];
	if (error?.code && ERROR_ADVICE[error.code]) advice.push(ERROR_ADVICE[error.code]);
	if (error?.code === 'insufficient_credits' && details.required !== undefined) {
		advice.unshift(
			`Required ${String(details.required)} credits; the balance is ${String(details.balance)}.`,
		);
	}
	if (Array.isArray(details.ids)) advice.push(`Unknown ids: ${details.ids.map(String).join(', ')}`);
	const code = error ? `${statusCode} ${error.code}${field ? ` (API field: ${field})` : ''}.` : '';
	return apiFailure(context.getNode(), failureKindOf(statusCode, error?.code), {
		body: { code: error?.code ?? null, message: error?.message ?? null, details } as JsonObject,
		message: headline,
		description: [code, ...advice].filter(Boolean).join(' '),
		status: statusCode,
		apiCode: error?.code,
		itemIndex,
	});
}

/** An error answer's kind: a 4xx was not carried out; after a 5xx it is not known. */
function failureKindOf(statusCode: number, apiCode: string | undefined): FailureKind {
	if (statusCode >= 500) return 'lostAnswer';
	return apiCode === 'not_found' ? 'noMatch' : 'refused';
}
