/** Saved lists: `GET|POST /v1/lists`, `GET|DELETE /v1/lists/:id`, `POST|DELETE /v1/lists/:id/contacts`. */
import { z } from 'zod';
import {
	LIMITS,
	PATH_TEMPLATES,
	contactIdSchema,
	createListRequestSchema,
	listContactsRequestSchema,
} from '../../nodes/ContactData/shared/client/contract';
import type { Account } from '../accounts.cjs';
import type { Dataset } from '../data.cjs';
import { apiError, asObject, invalidRequest, notFound, parseWith, type Answer } from '../http.cjs';
import { decodeToken, encodeToken } from '../json.cjs';
import type { SavedList } from '../lists.cjs';
import { sandboxFiltersSchema } from '../search.cjs';
import type { RequestContext, Route } from '../router.cjs';
import type { SandboxState } from '../state.cjs';

const sandboxCreateListSchema = createListRequestSchema.extend({
	filters: sandboxFiltersSchema.nullable().optional(),
	contact_ids: z.array(contactIdSchema).optional(),
});

export function listBody(
	state: SandboxState,
	account: Account,
	list: SavedList,
): Record<string, unknown> {
	return {
		id: list.id,
		name: list.name,
		filters: list.filters,
		contact_count: account.lists.count(state.ds, list, state.counter),
		created_at: list.createdAt,
		updated_at: list.updatedAt,
	};
}

/** The list named by the path, or 404. */
export function listOf(ctx: RequestContext): SavedList {
	const list = ctx.account.lists.get(ctx.params.id);
	if (!list) throw notFound(`no saved list has the id ${ctx.params.id}`, { id: ctx.params.id });
	return list;
}

/** 413 past a maximum number of ids. */
function checkIdCount(value: unknown, field: string, max: number): void {
	if (Array.isArray(value) && value.length > max) {
		throw apiError('too_many_ids', `at most ${max} ids per call`, {
			field,
			max,
			count: value.length,
		});
	}
}

/** The indexes of contact ids, or 404 naming the unknown ones. */
function indexesOf(ds: Dataset, ids: string[]): number[] {
	const indexes = ids.map((id) => ds.indexOf(id));
	const unknown = ids.filter((_, n) => indexes[n] < 0);
	if (unknown.length > 0)
		throw notFound(`unknown contact ids: ${unknown.slice(0, 5).join(', ')}`, { ids: unknown });
	return indexes;
}

function readLimit(query: URLSearchParams): number {
	const raw = query.get('limit');
	if (raw === null || raw === '') return LIMITS.listsLimitDefault;
	const limit = Number(raw);
	if (!/^\d+$/.test(raw) || limit < 1 || limit > LIMITS.listsLimitMax) {
		throw invalidRequest('limit', `must be a whole number from 1 to ${LIMITS.listsLimitMax}`);
	}
	return limit;
}

async function getLists(ctx: RequestContext): Promise<Answer> {
	const { state, account, query } = ctx;
	const limit = readLimit(query);
	let offset = 0;
	const cursor = query.get('cursor');
	if (cursor) {
		const value = decodeToken(cursor) as { o?: unknown } | undefined;
		if (
			!value ||
			typeof value !== 'object' ||
			!Number.isInteger(value.o) ||
			(value.o as number) < 0
		) {
			throw invalidRequest('cursor', 'is not a cursor from this listing');
		}
		offset = value.o as number;
	}
	const all = account.lists.all();
	const page = all.slice(offset, offset + limit);
	const next = offset + page.length;
	return {
		status: 200,
		body: {
			lists: page.map((list) => listBody(state, account, list)),
			next_cursor: next < all.length ? encodeToken({ o: next }) : null,
		},
	};
}

async function createList(ctx: RequestContext): Promise<Answer> {
	const { state, account } = ctx;
	const body = asObject(await ctx.body());
	checkIdCount(body.contact_ids, 'contact_ids', LIMITS.listCreateIdsMax);
	const request = parseWith(sandboxCreateListSchema, body);
	const indexes = indexesOf(state.ds, request.contact_ids ?? []);
	const list = account.lists.create(
		state.ds,
		request.name,
		request.filters ?? null,
		indexes,
		state.clock.iso(),
	);
	return { status: 201, body: listBody(state, account, list) };
}

async function getList(ctx: RequestContext): Promise<Answer> {
	return { status: 200, body: listBody(ctx.state, ctx.account, listOf(ctx)) };
}

async function deleteList(ctx: RequestContext): Promise<Answer> {
	const list = listOf(ctx);
	ctx.account.lists.delete(list.id);
	return { status: 204 };
}

async function changeMembers(ctx: RequestContext, change: 'add' | 'remove'): Promise<Answer> {
	const { state, account } = ctx;
	const list = listOf(ctx);
	const body = asObject(await ctx.body());
	checkIdCount(body.ids, 'ids', LIMITS.listIdsMax);
	const request = parseWith(listContactsRequestSchema, body);
	const indexes = indexesOf(state.ds, request.ids);
	const at = state.clock.iso();
	const count =
		change === 'add'
			? account.lists.add(state.ds, list, indexes, at)
			: account.lists.remove(state.ds, list, indexes, at);
	const contactCount = account.lists.count(state.ds, list, state.counter);
	return {
		status: 200,
		body:
			change === 'add'
				? { added: count, contact_count: contactCount }
				: { removed: count, contact_count: contactCount },
	};
}

export const listRoutes: Route[] = [
	{ method: 'GET', template: PATH_TEMPLATES.lists, handler: getLists },
	{ method: 'POST', template: PATH_TEMPLATES.lists, handler: createList },
	{ method: 'GET', template: PATH_TEMPLATES.list, handler: getList },
	{ method: 'DELETE', template: PATH_TEMPLATES.list, handler: deleteList },
	{
		method: 'POST',
		template: PATH_TEMPLATES.listContacts,
		handler: (ctx) => changeMembers(ctx, 'add'),
	},
	{
		method: 'DELETE',
		template: PATH_TEMPLATES.listContacts,
		handler: (ctx) => changeMembers(ctx, 'remove'),
	},
];
