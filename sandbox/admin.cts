/**
 * Admin routes under `/_sandbox/` (no key; loopback callers only): reset, balances, settings,
 * fault rules, events, the delivery log and request statistics.
 */
import { z } from 'zod';
import { EVENT_TYPES } from '../nodes/ContactData/shared/client/contract';
import { KEYS } from './accounts.cjs';
import { makeEvents } from './events.cjs';
import { faultRulesSchema } from './faults.cjs';
import { asObject, notFound, parseWith, type Answer } from './http.cjs';
import type { RequestContext, Route } from './router.cjs';
import type { SandboxState } from './state.cjs';

const balanceSchema = z.object({
	key: z.string().min(1),
	balance: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

/** Ten years either way: the clock stays within the dates JavaScript can write. */
const MAX_CLOCK_OFFSET_S = 10 * 365 * 86_400;

const settingsSchema = z
	.object({
		time_scale: z.number().min(0.001).max(100_000).optional(),
		rate_limits: z.boolean().optional(),
		webhook_retry_delays_ms: z.array(z.number().int().min(0).max(3_600_000)).max(20).optional(),
		clock_offset_s: z.number().min(-MAX_CLOCK_OFFSET_S).max(MAX_CLOCK_OFFSET_S).optional(),
		future_api: z.boolean().optional(),
	})
	.strict();

const eventsSchema = z.object({
	type: z.enum(EVENT_TYPES),
	list_id: z.string().min(1),
	// Made in one go: 500 events take about 60 ms on a million contacts; more would hold other requests.
	count: z.number().int().min(1).max(500).default(1),
	key: z.string().optional(),
});

function settingsBody(state: SandboxState): Record<string, unknown> {
	return {
		time_scale: state.settings.timeScale,
		rate_limits: state.settings.rateLimits,
		webhook_retry_delays_ms: state.settings.webhookRetryDelaysMs,
		clock_offset_s: state.clock.offsetMs / 1000,
		future_api: state.settings.futureApi ?? false,
		contacts: state.ds.size,
		seed: state.seed,
	};
}

function accountOf(state: SandboxState, key: string) {
	const account = state.accounts.get(key);
	if (!account) throw notFound(`no sandbox account has the key ${key}`, { key });
	return account;
}

async function reset(ctx: RequestContext): Promise<Answer> {
	ctx.state.reset();
	return { status: 200, body: { ok: true } };
}

async function setBalance(ctx: RequestContext): Promise<Answer> {
	const request = parseWith(balanceSchema, asObject(await ctx.body()));
	const account = accountOf(ctx.state, request.key);
	account.ledger.balance = request.balance;
	return { status: 200, body: { key: account.key, balance: account.ledger.balance } };
}

async function getSettings(ctx: RequestContext): Promise<Answer> {
	return { status: 200, body: settingsBody(ctx.state) };
}

async function setSettings(ctx: RequestContext): Promise<Answer> {
	const { state } = ctx;
	const request = parseWith(settingsSchema, asObject(await ctx.body()));
	if (request.time_scale !== undefined) state.settings.timeScale = request.time_scale;
	if (request.rate_limits !== undefined) state.settings.rateLimits = request.rate_limits;
	if (request.webhook_retry_delays_ms !== undefined)
		state.settings.webhookRetryDelaysMs = request.webhook_retry_delays_ms;
	if (request.clock_offset_s !== undefined) state.clock.offsetMs = request.clock_offset_s * 1000;
	if (request.future_api !== undefined) state.settings.futureApi = request.future_api;
	return { status: 200, body: settingsBody(state) };
}

async function setFaults(ctx: RequestContext): Promise<Answer> {
	const request = parseWith(faultRulesSchema, asObject(await ctx.body()));
	ctx.state.faults.set(request.rules);
	return { status: 200, body: { rules: ctx.state.faults.list() } };
}

async function getFaults(ctx: RequestContext): Promise<Answer> {
	return { status: 200, body: { rules: ctx.state.faults.list() } };
}

async function clearFaults(ctx: RequestContext): Promise<Answer> {
	ctx.state.faults.clear();
	return { status: 200, body: { rules: [] } };
}

async function emitEvents(ctx: RequestContext): Promise<Answer> {
	const { state } = ctx;
	const request = parseWith(eventsSchema, asObject(await ctx.body()));
	const account = accountOf(state, request.key ?? KEYS.growth);
	const list = account.lists.get(request.list_id);
	if (!list) throw notFound(`no saved list has the id ${request.list_id}`, { id: request.list_id });
	return {
		status: 200,
		body: { events: makeEvents(state, account, list, request.type, request.count) },
	};
}

async function deliveries(ctx: RequestContext): Promise<Answer> {
	return { status: 200, body: { deliveries: ctx.state.deliverer.deliveries() } };
}

async function stats(ctx: RequestContext): Promise<Answer> {
	const { state } = ctx;
	const keys: Record<string, unknown> = {};
	for (const account of state.accounts.values()) {
		keys[account.key] = {
			requests: account.requests,
			request_spans: Object.fromEntries(
				Object.entries(account.requestSpans).map(([route, { first, last }]) => [
					route,
					{ first_at: new Date(first).toISOString(), last_at: new Date(last).toISOString() },
				]),
			),
			http_429: account.http429,
			idempotent_replays: account.idempotentReplays,
			credits_charged: account.ledger.charged,
			balance: account.ledger.balance,
		};
	}
	return { status: 200, body: { keys, requests_total: state.requestsTotal } };
}

export const ADMIN_ROUTES: Route[] = [
	{ method: 'POST', template: '/_sandbox/reset', handler: reset },
	{ method: 'POST', template: '/_sandbox/balance', handler: setBalance },
	{ method: 'GET', template: '/_sandbox/settings', handler: getSettings },
	{ method: 'POST', template: '/_sandbox/settings', handler: setSettings },
	{ method: 'GET', template: '/_sandbox/faults', handler: getFaults },
	{ method: 'POST', template: '/_sandbox/faults', handler: setFaults },
	{ method: 'DELETE', template: '/_sandbox/faults', handler: clearFaults },
	{ method: 'POST', template: '/_sandbox/events', handler: emitEvents },
	{ method: 'GET', template: '/_sandbox/deliveries', handler: deliveries },
	{ method: 'GET', template: '/_sandbox/stats', handler: stats },
];
