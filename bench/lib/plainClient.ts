/** A plain undici client: the baseline the node's figures are compared with. */
import { request } from 'undici';

import { secondsSince } from './bench';
import type { RecordedRequest } from './recordingProxy';

export interface PlainRunFigures {
	wall_s: number;
	requests: number;
	non_2xx: number;
}

/** Sends the requests one after another, as the node does, and reads each JSON answer. */
export async function sendSequentially(baseUrl: string, requests: RecordedRequest[]): Promise<PlainRunFigures> {
	let nonOk = 0;
	const started = process.hrtime.bigint();
	for (const entry of requests) {
		const answer = await request(`${baseUrl}${entry.path}`, {
			method: entry.method as 'GET',
			headers: entry.headers,
			body: entry.body === '' ? undefined : entry.body,
		});
		await answer.body.json();
		if (answer.statusCode < 200 || answer.statusCode >= 300) nonOk++;
	}
	return { wall_s: secondsSince(started), requests: requests.length, non_2xx: nonOk };
}

/** A JSON API call with the bench's key, for preparing data and measuring latency floors. */
export async function callApi<T>(
	baseUrl: string,
	apiKey: string,
	method: 'GET' | 'POST',
	path: string,
	body?: unknown,
): Promise<{ status: number; body: T }> {
	const answer = await request(`${baseUrl}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${apiKey}`,
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: answer.statusCode, body: (await answer.body.json()) as T };
}
