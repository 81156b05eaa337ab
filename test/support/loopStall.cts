/** Low-level probes of a server in this process: raw bytes on a socket, and how long the event loop stalled. */
import { connect } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Runs `send` and measures the longest time the event loop (this process's, the sandbox's) was blocked meanwhile. */
export async function withStall<T>(send: () => Promise<T>): Promise<{ reply: T; stallMs: number }> {
	const histogram = monitorEventLoopDelay({ resolution: 10 });
	histogram.enable();
	try {
		// The histogram counts from its first sample: let it take one before the request.
		await new Promise((resolve) => setTimeout(resolve, 50));
		const reply = await send();
		return { reply, stallMs: histogram.max / 1e6 };
	} finally {
		histogram.disable();
	}
}

/** Sends raw bytes on a fresh connection and returns everything the sandbox answers. */
export function rawExchange(port: number, bytes: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
		let answer = '';
		socket.setEncoding('utf8');
		socket.on('data', (chunk: string) => (answer += chunk));
		socket.on('close', () => resolve(answer));
		socket.on('error', reject);
	});
}
