/** A forwarding HTTP proxy on loopback that records every request sent through it ("METHOD /path?query"). */
import { request } from 'node:http';

import { listenLocally, type LocalServer } from './httpServer.cjs';

export async function startRecordingProxy(
	target: () => string,
	sent: string[],
): Promise<LocalServer> {
	return await listenLocally((req, res) => {
		sent.push(`${req.method} ${req.url}`);
		const upstream = request(
			new URL(req.url ?? '/', target()),
			{ method: req.method, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
}
