/** `POST /v1/unlock` and `POST /v1/enrich`: the calls that charge credits. */
import {
	HEADERS,
	LIMITS,
	PATHS,
	PATH_TEMPLATES,
	enrichRequestSchema,
	unlockRequestSchema,
	type EnrichRequest,
	type UnlockLevel,
} from '../../nodes/ContactData/shared/client/contract';
import type { Account } from '../accounts.cjs';
import { apiError, asObject, invalidRequest, notFound, parseWith, type Answer } from '../http.cjs';
import { canonicalJson } from '../json.cjs';
import { contactRecord } from '../records.cjs';
import type { RequestContext, Route } from '../router.cjs';
import type { SandboxState } from '../state.cjs';

/** 402 when the balance does not cover a cost; nothing is charged. */
function requireCredits(account: Account, required: number): void {
	if (required > account.ledger.balance) {
		throw apiError(
			'insufficient_credits',
			`this call needs ${required} credits; the balance is ${account.ledger.balance}`,
			{
				required,
				balance: account.ledger.balance,
			},
		);
	}
}

function unlockContacts(
	state: SandboxState,
	account: Account,
	ids: string[],
	level: UnlockLevel,
): Answer {
	const indexes = ids.map((id) => state.ds.indexOf(id));
	const found = ids.flatMap((id, n) => (indexes[n] >= 0 ? [{ id, index: indexes[n] }] : []));
	requireCredits(
		account,
		found.reduce((sum, { index }) => sum + account.ledger.costOf(index, level), 0),
	);
	const charged = account.ledger.unlock(found, level, 'unlock', state.clock.iso());
	return {
		status: 200,
		body: {
			contacts: ids.map((id, n) =>
				indexes[n] >= 0
					? contactRecord(state.ds, indexes[n], account.ledger.holding(indexes[n]))
					: { id, error: { code: 'not_found', message: `no contact has the id ${id}` } },
			),
			credits_charged: charged,
			credits_remaining: account.ledger.balance,
		},
	};
}

/**
 * The request's `Idempotency-Key`, checked: 1-255 characters; undefined when absent. (A key sent
 * twice is refused for every route in server.ts, from the raw headers: Node joins the two.)
 */
function idempotencyKeyOf(ctx: RequestContext): string | undefined {
	const key = ctx.req.headers[HEADERS.idempotencyKey] as string | undefined;
	if (key !== undefined && (key.length === 0 || key.length > LIMITS.idempotencyKeyMaxLength)) {
		throw invalidRequest(
			'Idempotency-Key',
			`must be 1-${LIMITS.idempotencyKeyMaxLength} characters`,
		);
	}
	return key;
}

/**
 * Runs a charging call once per `Idempotency-Key`: the same key and body (as parsed JSON) replay
 * the first 2xx answer, credits_charged included, marked Idempotent-Replayed, and charge nothing
 * more; another body is 409.
 */
function once(
	ctx: RequestContext,
	path: string,
	key: string | undefined,
	body: unknown,
	perform: () => Answer,
): Answer {
	if (key === undefined) return perform();
	const { state, account } = ctx;
	const canonical = canonicalJson(body);
	const now = state.clock.now();
	const previous = account.idempotency.lookup(path, key, canonical, now);
	if (previous.kind === 'replay') {
		account.idempotentReplays++;
		return {
			status: previous.status,
			body: previous.response,
			headers: { [HEADERS.idempotentReplayed]: 'true' },
		};
	}
	if (previous.kind === 'conflict') {
		throw apiError('conflict', 'this Idempotency-Key was used with another body', {
			field: 'Idempotency-Key',
		});
	}
	const answer = perform();
	account.idempotency.remember(path, key, canonical, answer.status, answer.body, now);
	return answer;
}

async function unlock(ctx: RequestContext): Promise<Answer> {
	const { state, account } = ctx;
	const key = idempotencyKeyOf(ctx);
	const body = asObject(await ctx.body());
	if (Array.isArray(body.ids) && body.ids.length > LIMITS.idsPerUnlock) {
		throw apiError('too_many_ids', `at most ${LIMITS.idsPerUnlock} ids per unlock`, {
			field: 'ids',
			max: LIMITS.idsPerUnlock,
			count: body.ids.length,
		});
	}
	const request = parseWith(unlockRequestSchema, body);
	return once(ctx, PATHS.unlock, key, body, () =>
		unlockContacts(state, account, request.ids, request.level),
	);
}

function enrichContact(state: SandboxState, account: Account, request: EnrichRequest): Answer {
	let index = request.email ? state.ds.indexOfEmail(request.email) : -1;
	if (index < 0 && request.linkedin_url) index = state.ds.indexOfLinkedinUrl(request.linkedin_url);
	if (index < 0) throw notFound('no contact matches this email or LinkedIn URL');
	requireCredits(account, account.ledger.costOf(index, request.level));
	const charged = account.ledger.unlock(
		[{ index, id: state.ds.idOf(index) }],
		request.level,
		'enrich',
		state.clock.iso(),
	);
	return {
		status: 200,
		body: {
			contact: contactRecord(state.ds, index, account.ledger.holding(index)),
			credits_charged: charged,
			credits_remaining: account.ledger.balance,
		},
	};
}

async function enrich(ctx: RequestContext): Promise<Answer> {
	const { state, account } = ctx;
	const key = idempotencyKeyOf(ctx);
	const body = asObject(await ctx.body());
	const request = parseWith(enrichRequestSchema, body);
	return once(ctx, PATHS.enrich, key, body, () => enrichContact(state, account, request));
}

export const unlockRoutes: Route[] = [
	{ method: 'POST', template: PATH_TEMPLATES.unlock, handler: unlock },
	{ method: 'POST', template: PATH_TEMPLATES.enrich, handler: enrich },
];
