/** The Contact Data API credential as the transport uses it, fetched and checked once a context. */
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
import { OperationError } from './failures';

export const CREDENTIAL_NAME = 'contactDataApi';
export const DEFAULT_TIMEOUT_SECONDS = 60;

export interface ContactDataCredential {
	apiKey: string;
	baseUrl: string;
	/** Seconds a call may wait for an answer. */
	timeout?: number;
}

export function authorizationOf(apiKey: string): string {
	return `Bearer ${apiKey}`;
}

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
	apiKey: string;
	timeoutMs: number;
	/** Handed to `httpRequestWithAuthentication`, so that it does not fetch the credential again. */
	decrypted: ICredentialsDecrypted;
}

/** One per context: n8n decrypts on each `getCredentials`; a run may make thousands of calls. */
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
		throw new OperationError(context, problem.headline, {
			description: `${problem.remedy} Change the Base URL in the Contact Data API credential.`,
			itemIndex,
			kind: 'notSent',
		});
	}
	const details = context.getNode().credentials?.[CREDENTIAL_NAME];
	const apiKey = String(data.apiKey ?? '');
	return {
		baseUrl: normalizeBaseUrl(baseUrl),
		keyHash: createHash('sha256').update(apiKey).digest('hex').slice(0, 16),
		apiKey,
		timeoutMs: timeoutMsOf(data),
		decrypted: {
			id: details?.id ?? '',
			name: details?.name ?? '',
			type: CREDENTIAL_NAME,
			data: { ...data } as unknown as ICredentialDataDecryptedObject,
		},
	};
}

/** The credential's Timeout (Seconds) in ms; the default where it is not a positive number. */
export function timeoutMsOf(data: ContactDataCredential): number {
	const seconds = Number(data.timeout);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS) * 1000;
}

/**
 * `value` (a text, or a parsed body) with every copy of the API key wiped out: APIs echo keys. The
 * key is sent as stored, and an API may read it trimmed: the trimmed key is in both forms.
 */
export function scrub<V>(value: V, apiKey: string): V {
	const secret = apiKey.trim();
	if (secret.length < 4 || value === undefined) return value;
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	if (!text.includes(secret)) return value;
	const wiped = text.split(secret).join('[API key]');
	return (typeof value === 'string' ? wiped : JSON.parse(wiped)) as V;
}
