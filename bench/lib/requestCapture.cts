/**
 * Records every HTTP request this process sends (method, path, headers, body), so a plain client
 * can later send exactly the same requests. In process, by wrapping node:http's
 * `ClientRequest.prototype.write/end` while recording (n8n's request helper goes through them),
 * so the run that is recorded can be the run that is measured.
 */
import { ClientRequest, type OutgoingHttpHeaders } from 'node:http';

export interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: string;
}

/** Headers of the connection itself; the replaying client sets its own. */
const CONNECTION_HEADERS = new Set([
	'host',
	'connection',
	'content-length',
	'transfer-encoding',
	'keep-alive',
]);

function replayableHeaders(headers: OutgoingHttpHeaders): Record<string, string> {
	const kept: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined || CONNECTION_HEADERS.has(name.toLowerCase())) continue;
		kept[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return kept;
}

type Write = (this: ClientRequest, ...args: unknown[]) => boolean;
type End = (this: ClientRequest, ...args: unknown[]) => ClientRequest;

export class RequestCapture {
	readonly recorded: RecordedRequest[] = [];
	private readonly bodies = new WeakMap<ClientRequest, Buffer[]>();
	private original: { write: Write; end: End } | undefined;

	private keep(request: ClientRequest, chunk: unknown): void {
		if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) return;
		const chunks = this.bodies.get(request) ?? [];
		chunks.push(Buffer.from(chunk));
		this.bodies.set(request, chunks);
	}

	start(): void {
		const proto = ClientRequest.prototype as unknown as { write: Write; end: End };
		const original = { write: proto.write, end: proto.end };
		this.original = original;
		const capture = this;
		proto.write = function (this: ClientRequest, chunk: unknown, ...rest: unknown[]) {
			capture.keep(this, chunk);
			return original.write.call(this, chunk, ...rest);
		};
		proto.end = function (this: ClientRequest, chunk?: unknown, ...rest: unknown[]) {
			capture.keep(this, chunk);
			capture.recorded.push({
				method: this.method,
				path: this.path,
				headers: replayableHeaders(this.getHeaders()),
				body: Buffer.concat(capture.bodies.get(this) ?? []).toString('utf8'),
			});
			return original.end.call(this, chunk, ...rest);
		};
	}

	stop(): RecordedRequest[] {
		if (this.original) Object.assign(ClientRequest.prototype, this.original);
		this.original = undefined;
		return this.recorded;
	}
}
