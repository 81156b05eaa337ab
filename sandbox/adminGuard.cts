/**
 * Admin routes change state without a key, so a web page open in the same machine's browser must
 * not reach them: a request from another origin (Origin, Sec-Fetch-Site), through a foreign host
 * name (DNS rebinding: Host), or with a body a cross-site form can send (anything but JSON) is refused.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from './http.cjs';

const LOOPBACK_HOSTNAMES = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether `http://<authority>` names a loopback host (and, when given, this port). */
function isLoopbackAuthority(authority: string, port?: number): boolean {
	let url: URL;
	try {
		url = new URL(`http://${authority}`);
	} catch {
		return false;
	}
	return LOOPBACK_HOSTNAMES.test(url.hostname) && (port === undefined || url.port === String(port));
}

function isSameOrigin(origin: string, port: number): boolean {
	return origin.startsWith('http://') && isLoopbackAuthority(origin.slice('http://'.length), port);
}

function crossSite(message: string): ApiError {
	return new ApiError(
		403,
		'invalid_request',
		`admin routes refuse cross-site requests: ${message}`,
		{ reason: 'cross_site' },
	);
}

/** Throws when an admin request may come from a web page of another site; `port` is the sandbox's. */
export function refuseCrossSite(req: IncomingMessage, port: number): void {
	const { origin, host } = req.headers;
	if (host !== undefined && !isLoopbackAuthority(host))
		throw crossSite(`Host ${host} is not a loopback address`);
	if (origin !== undefined && !isSameOrigin(origin, port))
		throw crossSite(`Origin ${origin} is not this sandbox`);
	const site = req.headers['sec-fetch-site'];
	if (site !== undefined && site !== 'same-origin' && site !== 'none')
		throw crossSite(`Sec-Fetch-Site ${site}`);
	const hasBody =
		Number(req.headers['content-length'] ?? 0) > 0 ||
		req.headers['transfer-encoding'] !== undefined;
	const type = req.headers['content-type'];
	if ((hasBody || type !== undefined) && !/^application\/json\s*(;|$)/i.test(type ?? '')) {
		throw new ApiError(
			415,
			'invalid_request',
			'admin routes take JSON bodies: send Content-Type: application/json',
			{
				field: 'Content-Type',
			},
		);
	}
}
