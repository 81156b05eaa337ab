/** `POST /v1/lists/:id/export` and the signed download `GET /v1/exports/:id`. */
import {
	LIMITS,
	PATH_TEMPLATES,
	exportRequestSchema,
} from '../../nodes/ContactData/shared/client/contract';
import type { Account } from '../accounts.cjs';
import { exportedCount, streamExport, type ExportSource } from '../exports.cjs';
import { apiError, asObject, invalidRequest, notFound, parseWith, type Answer } from '../http.cjs';
import { isFieldPath } from '../records.cjs';
import type { RequestContext, Route, StreamedAnswer } from '../router.cjs';
import type { SandboxState } from '../state.cjs';
import type { SavedList } from '../lists.cjs';
import { listOf } from './lists.cjs';

function sourceOf(
	state: SandboxState,
	account: Account,
	list: SavedList,
	unlockedOnly: boolean,
): ExportSource {
	return {
		ds: state.ds,
		lists: account.lists,
		list,
		holding: (index) => account.ledger.holding(index),
		holdings: () => account.ledger.heldIndexes(),
		unlockedOnly,
	};
}

async function exportList(ctx: RequestContext): Promise<Answer | StreamedAnswer> {
	const { state, account } = ctx;
	const list = listOf(ctx);
	const request = parseWith(exportRequestSchema, asObject(await ctx.body()));
	const unknownField = request.fields?.find((path) => !isFieldPath(path));
	if (unknownField !== undefined)
		throw invalidRequest('fields', `unknown field path "${unknownField}"`);
	const unlockedOnly = request.unlocked_only ?? false;
	const source = sourceOf(state, account, list, unlockedOnly);
	const count = exportedCount(source, state.counter);
	if (count >= LIMITS.bulkExportThreshold || request.delivery === 'url') {
		const { job, pathAndQuery } = state.exportUrls.create(
			{
				accountKey: account.key,
				listId: list.id,
				format: request.format,
				fields: request.fields,
				unlockedOnly,
			},
			state.clock.now(),
		);
		return {
			status: 202,
			body: {
				url: ctx.baseUrl + pathAndQuery,
				expires_at: new Date(job.expiresAt).toISOString(),
				format: request.format,
				contact_count: count,
			},
		};
	}
	return { stream: (res) => streamExport(res, source, request.format, request.fields) };
}

async function download(ctx: RequestContext): Promise<Answer | StreamedAnswer> {
	const { state, query } = ctx;
	const check = state.exportUrls.check(
		ctx.params.id,
		query.get('expires'),
		query.get('signature'),
		state.clock.now(),
	);
	if (!check.ok && check.reason === 'not_found') throw notFound('no such export');
	if (!check.ok) {
		const message =
			check.reason === 'expired'
				? 'this export URL has expired'
				: 'this export URL is not validly signed';
		throw apiError('unauthorized', message, { reason: check.reason });
	}
	const { job } = check;
	const account = state.accounts.get(job.accountKey);
	const list = account?.lists.get(job.listId);
	if (!account || !list) throw notFound('the list of this export no longer exists');
	const source = sourceOf(state, account, list, job.unlockedOnly);
	return { stream: (res) => streamExport(res, source, job.format, job.fields) };
}

export const exportRoutes: Route[] = [
	{ method: 'POST', template: PATH_TEMPLATES.listExport, handler: exportList },
	{ method: 'GET', template: PATH_TEMPLATES.exportDownload, handler: download, public: true },
];
