/** A local receiver for webhook deliveries: records each one and answers with scripted statuses (then 200). */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { WebhookEvent } from '../../nodes/ContactData/shared/client/contract';

export interface Received {
	path: string;
	headers: IncomingMessage['headers'];
	raw: string;
	body: WebhookEvent;
}

/** A local receiver that records deliveries and answers with scripted statuses (then 200). */
export class Receiver {
	readonly received: Received[] = [];
	script: Array<number | 'hang'> = [];
	private server!: Server;
	url = '';
	private readonly hanging: Array<() => void> = [];

	async start(): Promise<void> {
		this.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const raw = Buffer.concat(chunks).toString('utf8');
				this.received.push({
					path: req.url ?? '',
					headers: req.headers,
					raw,
					body: JSON.parse(raw) as WebhookEvent,
				});
				const next = this.script.shift() ?? 200;
				if (next === 'hang') {
					this.hanging.push(() => res.destroy());
					return;
				}
				res.writeHead(next).end();
			});
		});
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
	}

	async stop(): Promise<void> {
		for (const release of this.hanging) release();
		this.server.closeAllConnections();
		await new Promise((resolve) => this.server.close(resolve));
	}
}
