/**
 * A pass-through proxy that records every request the node sends (method, path, headers, body),
 * so a plain client can later send exactly the same requests.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: string;
}

/** Headers the HTTP client sets for the connection itself; undici sets its own. */
const CONNECTION_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export function replayableHeaders(headers: IncomingHttpHeaders): Record<string, string> {
	const kept: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined || CONNECTION_HEADERS.has(name)) continue;
		kept[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return kept;
}

export interface RecordingProxy {
	url: string;
	recorded: RecordedRequest[];
	close(): Promise<void>;
}

export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
	const recorded: RecordedRequest[] = [];
	const server: Server = createServer((incoming, outgoing) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			const entry: RecordedRequest = {
				method: incoming.method ?? 'GET',
				path: incoming.url ?? '/',
				headers: replayableHeaders(incoming.headers),
				body: Buffer.concat(chunks).toString('utf8'),
			};
			recorded.push(entry);
			request(`${targetUrl}${entry.path}`, {
				method: entry.method as 'GET',
				headers: entry.headers,
				body: entry.body === '' ? undefined : entry.body,
			}).then(
				async (answer) => {
					const body = Buffer.from(await answer.body.arrayBuffer());
					const headers = Object.fromEntries(
						Object.entries(answer.headers).filter(([name]) => !CONNECTION_HEADERS.has(name)),
					);
					outgoing.writeHead(answer.statusCode, headers);
					outgoing.end(body);
				},
				(error: unknown) => outgoing.destroy(error instanceof Error ? error : new Error(String(error))),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		recorded,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
