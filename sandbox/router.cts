/**
 * Route tables: a method and a path template (the contract's PATH_TEMPLATES) per handler. A known path with
 * another method is 405; an unknown path is 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchPathTemplate } from '../nodes/ContactData/shared/client/contract';
import type { Account } from './accounts.cjs';
import type { Answer } from './http.cjs';
import type { SandboxState } from './state.cjs';

export interface RequestContext {
	state: SandboxState;
	/** The caller's account (undefined on routes without a key: export downloads, admin). */
	account: Account;
	req: IncomingMessage;
	res: ServerResponse;
	params: Record<string, string>;
	query: URLSearchParams;
	/** `http://127.0.0.1:<port>`: the sandbox's own address (never the caller's Host header). */
	baseUrl: string;
	/** The parsed JSON body (400 when malformed). */
	body(): Promise<unknown>;
}

/** An answer whose body is written by `stream` (exports). */
export interface StreamedAnswer {
	stream: (res: ServerResponse) => Promise<void>;
}

export type Handler = (ctx: RequestContext) => Promise<Answer | StreamedAnswer>;

export interface Route {
	method: string;
	template: string;
	handler: Handler;
	/** No API key needed (signed export downloads). */
	public?: boolean;
}

export type RouteMatch =
	| { kind: 'found'; route: Route; params: Record<string, string> }
	| { kind: 'method_not_allowed'; allowed: string[] }
	| { kind: 'not_found' };

export function matchRoute(routes: Route[], method: string, path: string): RouteMatch {
	const allowed: string[] = [];
	for (const route of routes) {
		const params = matchPathTemplate(route.template, path);
		if (!params) continue;
		if (route.method === method) return { kind: 'found', route, params };
		allowed.push(route.method);
	}
	return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
}
