/** A list's export; a large list's signed URL is fetched without the key, over https only. */
import { apiCredentialOf, type ApiContext } from './apiCredential';
import { apiError, downloadFailed } from './apiErrors';
import { isAllowedSignedUrl } from './baseUrl';
import type { ApiRequest, ApiResponse } from './call';
import { ApiFailure } from './failures';
import { PATHS, exportUrlResponseSchema, type ExportUrlResponse } from './contract';
import { readJsonStream } from './jsonStream';
import {
	backoffMs,
	errorCodeOf,
	isConnectionLost,
	isTimeout,
	isTransientStatus,
	MAX_TRANSIENT_ATTEMPTS,
} from './retries';
import { apiRequest } from './transport';
import { cancelSignalOf, pause, stopped } from './waits';

export type Download = ApiResponse<AsyncIterable<Buffer>>;

/** The export's answer, with the signed URL of a large list's file (a 202). */
export interface StartedExport {
	started: Download;
	bulk?: ExportUrlResponse;
}

/** Starts a list's export; `nothingDone` says what a 202 without a usable URL left undone. */
export async function startExport(
	this: ApiContext,
	listId: string,
	call: Pick<ApiRequest, 'body' | 'pathParameter' | 'fieldNames' | 'itemIndex'>,
	nothingDone: string,
): Promise<StartedExport> {
	const started = (await apiRequest.call(this, {
		...call,
		method: 'POST',
		path: PATHS.listExport(listId),
		stream: true,
		safeToRetry: true,
	})) as Download;
	if (started.statusCode !== 202) return { started };
	const answer = exportUrlResponseSchema.safeParse(await readJsonStream(started.body));
	if (answer.success) return { started, bulk: answer.data };
	const fields = answer.error.issues.map((issue) => issue.path.join('.') || 'a JSON object');
	const missing = [...new Set(fields)].map((field) => `\`${field}\``).join(', ');
	throw new ApiFailure(this, 'unreadableAnswer', {
		code: 'unreadable_answer',
		message: `The API answered the export of a large list without a usable ${missing}`,
		description: nothingDone,
		status: 202,
		itemIndex: call.itemIndex,
	});
}

/** Opens a signed export URL as a stream, sending it again after a lost connection or a 5xx. */
export async function openSignedUrl(
	this: ApiContext,
	url: string,
	itemIndex?: number,
): Promise<Download> {
	const { timeoutMs } = await apiCredentialOf(this, itemIndex);
	if (!isAllowedSignedUrl(url)) {
		throw new ApiFailure(this, 'notSent', {
			code: 'insecure_export_url',
			message: 'The export URL the API gave is not https, so it was not opened',
			description:
				'A signed export URL carries access to the file: it is opened over https only (plain http only for the local sandbox on localhost).',
			itemIndex,
		});
	}
	for (let attempt = 1; ; attempt++) {
		const lastAttempt = attempt >= MAX_TRANSIENT_ATTEMPTS;
		const response = await fetchSignedUrl(this, url, timeoutMs, lastAttempt, itemIndex);
		if (response !== undefined) {
			const { statusCode } = response;
			if (statusCode >= 200 && statusCode < 300) return response;
			const body = await readJsonStream(response.body);
			if (!isTransientStatus(statusCode) || lastAttempt)
				throw apiError(this, statusCode, body, { itemIndex });
		}
		await pause(this, backoffMs(attempt), itemIndex);
	}
}

/** One GET of the URL: its answer, or `undefined` when the connection was lost (worth a resend). */
async function fetchSignedUrl(
	context: ApiContext,
	url: string,
	timeoutMs: number,
	lastAttempt: boolean,
	itemIndex: number | undefined,
): Promise<Download | undefined> {
	try {
		return (await context.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: timeoutMs,
			abortSignal: cancelSignalOf(context),
		})) as Download;
	} catch (error) {
		const code = errorCodeOf(error);
		if (code === 'ERR_CANCELED') throw stopped(context, itemIndex);
		if (isConnectionLost(code) && !isTimeout(error) && !lastAttempt) return undefined;
		throw downloadFailed(context, error, timeoutMs, itemIndex);
	}
}
