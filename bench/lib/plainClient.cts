/** A plain undici client: the baseline the node's figures are compared with. */
import { request } from 'undici';

import { secondsSince } from './bench.cjs';
import type { RecordedRequest } from './requestCapture.cjs';

export interface PlainRunFigures {
	wall_s: number;
	requests: number;
	non_2xx: number;
}

/**
 * Sends the requests one after another, as the node does, and reads each JSON answer. Over one
 * kept-alive connection, or with `newConnectionEach` a connection per request (as n8n's request
 * helper makes: it builds a new agent for every request).
 */
export async function sendSequentially(
	baseUrl: string,
	requests: RecordedRequest[],
	options: { newConnectionEach?: boolean } = {},
): Promise<PlainRunFigures> {
	let nonOk = 0;
	const started = process.hrtime.bigint();
	for (const entry of requests) {
		const answer = await request(`${baseUrl}${entry.path}`, {
			method: entry.method as 'GET',
			headers: entry.headers,
			body: entry.body === '' ? undefined : entry.body,
			reset: options.newConnectionEach === true,
		});
		await answer.body.json();
		if (answer.statusCode < 200 || answer.statusCode >= 300) nonOk++;
	}
	return { wall_s: secondsSince(started), requests: requests.length, non_2xx: nonOk };
}

/** The headers of a JSON API call with a key. */
export function apiHeaders(apiKey: string, withBody: boolean): Record<string, string> {
	return {
		authorization: `Bearer ${apiKey}`,
		accept: 'application/json',
		...(withBody ? { 'content-type': 'application/json' } : {}),
	};
}
