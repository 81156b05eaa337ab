/**
 * An HTTP server on 127.0.0.1 that can stop listening (connections are then refused) and listen
 * again on the same port: the model's fake API plays "connection refused" with it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type { IncomingMessage, ServerResponse };

export interface SwitchableServer {
	url: string;
	/** Stops accepting connections (idle ones close); `listen` takes them again. */
	refuse(): void;
	listen(): Promise<void>;
	close(): Promise<void>;
}

export async function listenSwitchably(
	handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<SwitchableServer> {
	const server = createServer(handler);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		refuse() {
			server.close();
			server.closeIdleConnections();
		},
		async listen() {
			if (!server.listening)
				await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
		},
		close: () =>
			new Promise<void>((resolve) => {
				if (server.listening) server.close(() => resolve());
				else resolve();
				server.closeAllConnections();
			}),
	};
}
