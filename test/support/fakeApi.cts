/**
 * A misbehaving API on loopback for transport tests: every request goes to `answer`, which may
 * answer, or never answer (leave the response open) to play an API that hangs.
 */
import { listenLocally, type IncomingMessage, type ServerResponse } from './httpServer.cjs';

export type { IncomingMessage, ServerResponse };

export interface FakeApi {
	url: string;
	/** Requests received so far, in order: method, path and the parsed JSON body. */
	requests: Array<{ method: string; path: string; body: unknown; authorization?: string }>;
	close(): Promise<void>;
}

export type FakeAnswer = (
	request: FakeApi['requests'][number],
	res: ServerResponse,
	req: IncomingMessage,
) => void;

export function json(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
) {
	res
		.writeHead(status, { 'content-type': 'application/json', ...headers })
		.end(JSON.stringify(body));
}

export async function startFakeApi(answer: FakeAnswer): Promise<FakeApi> {
	const requests: FakeApi['requests'] = [];
	const server = await listenLocally((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body: unknown;
			try {
				body = text ? JSON.parse(text) : undefined;
			} catch {
				body = text;
			}
			const request = {
				method: req.method ?? 'GET',
				path: new URL(req.url ?? '/', 'http://fake').pathname,
				body,
				authorization: req.headers.authorization,
			};
			requests.push(request);
			answer(request, res, req);
		});
	});
	return { url: server.url, requests, close: server.close };
}
