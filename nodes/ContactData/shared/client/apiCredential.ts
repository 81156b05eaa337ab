/**
 * The Contact Data API credential as the transport uses it: fetched and checked once per execution
 * context, its key hashed for the rate windows (and wiped from texts), its timeout read.
 */
import { createHash } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { baseUrlProblem, normalizeBaseUrl } from './baseUrl';
import { DEFAULT_TIMEOUT_SECONDS } from './credentialDefaults';
import { OperationError } from './failures';

/** The credential type every Contact Data node uses. */
export const CREDENTIAL_NAME = 'contactDataApi';

export interface ContactDataCredential {
	apiKey: string;
	baseUrl: string;
	/** Seconds a call may wait for an answer. */
	timeout?: number;
}

/** The Authorization header the API takes: the key as a bearer token. */
export function authorizationOf(apiKey: string): string {
	return `Bearer ${apiKey}`;
}

/** The n8n contexts that call the API: the action node, the trigger's lifecycle, list searches. */
export type ApiContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

export interface ApiCredential {
	baseUrl: string;
	/** Names the key in the rate windows, so that the key itself is not kept there. */
	keyHash: string;
	/** Wiped from error texts: an API may echo the key it was sent. */
	apiKey: string;
	timeoutMs: number;
	/** Handed to `httpRequestWithAuthentication`, so that it does not fetch the credential again. */
	decrypted: ICredentialsDecrypted;
}

/**
 * The credential of one execution context, fetched and checked once: n8n decrypts a credential on
 * every `getCredentials`, and a node run may make thousands of calls. Keyed by the context object,
 * so it lives as long as that run (or that webhook call, list search, trigger activation) does.
 */
const credentialsByContext = new WeakMap<ApiContext, Promise<ApiCredential>>();

export async function apiCredentialOf(
	context: ApiContext,
	itemIndex?: number,
): Promise<ApiCredential> {
	let credential = credentialsByContext.get(context);
	if (!credential) {
		credential = fetchApiCredential(context, itemIndex);
		credentialsByContext.set(context, credential);
		// A refused credential is not kept: every item that asks again gets its own error.
		credential.catch(() => credentialsByContext.delete(context));
	}
	return await credential;
}

async function fetchApiCredential(context: ApiContext, itemIndex?: number): Promise<ApiCredential> {
	const data = await context.getCredentials<ContactDataCredential>(CREDENTIAL_NAME);
	const baseUrl = String(data.baseUrl ?? '');
	const problem = baseUrlProblem(baseUrl);
	if (problem !== undefined) {
		throw new OperationError(context, problem, {
			description: 'Change the Base URL in the Contact Data API credential.',
			itemIndex,
			kind: 'notSent',
		});
	}
	const details = context.getNode().credentials?.[CREDENTIAL_NAME];
	return {
		baseUrl: normalizeBaseUrl(baseUrl),
		keyHash: createHash('sha256')
			.update(String(data.apiKey ?? ''))
			.digest('hex')
			.slice(0, 16),
		apiKey: String(data.apiKey ?? ''),
		timeoutMs: timeoutMsOf(data),
		decrypted: {
			id: details?.id ?? '',
			name: details?.name ?? '',
			type: CREDENTIAL_NAME,
			data: { ...data } as unknown as ICredentialDataDecryptedObject,
		},
	};
}

/** The credential's Timeout (Seconds) in milliseconds; the default where it is not a positive number. */
export function timeoutMsOf(data: ContactDataCredential): number {
	const timeoutSeconds = Number(data.timeout ?? DEFAULT_TIMEOUT_SECONDS);
	return (
		(Number.isFinite(timeoutSeconds) && timeoutSeconds > 0
			? timeoutSeconds
			: DEFAULT_TIMEOUT_SECONDS) * 1000
	);
}

/** `value` (a text, or a parsed body) with every copy of the API key wiped out. */
export function scrub<V>(value: V, apiKey: string): V {
	if (apiKey.length < 4 || value === undefined) return value;
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	if (!text.includes(apiKey)) return value;
	const wiped = text.split(apiKey).join('[API key]');
	return (typeof value === 'string' ? wiped : JSON.parse(wiped)) as V;
}
