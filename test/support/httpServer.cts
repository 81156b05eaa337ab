/** A plain HTTP server on 127.0.0.1 and a free port, for tests and harness hosts (which import no `node:` module). */
import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export type { IncomingHttpHeaders, IncomingMessage, ServerResponse };

export interface LocalServer {
	/** `http://127.0.0.1:<port>`, no trailing slash. */
	url: string;
	/** Stops listening and drops open connections (a hanging answer included). */
	close(): Promise<void>;
}

export async function listenLocally(
	handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LocalServer> {
	const server = createServer(handler);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** A loopback port nothing listens on: one the system just handed out and took back. */
export async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}
