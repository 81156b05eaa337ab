/**
 * The credential's test: GET /v1/credits/balance, its outcome in the package's words (n8n 1.x's
 * tester shows its generic text for a declarative test's failure: n8n-workflow erases the cause).
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { authorizationOf, scrub, timeoutMsOf, type ContactDataCredential } from './apiCredential';
import { baseUrlProblem, normalizeBaseUrl } from './baseUrl';
import { balanceSchema, PATHS } from './contract';
import { noAnswerWithin, NOTHING_ANSWERS, nothingAnswersAt } from './apiErrors';
import { errorCodeOf, isTimeout } from './retries';

/** The name the nodes' credentials give as `testedBy`. */
export const CREDENTIAL_TEST = 'contactDataApiTest';

const REFUSALS: Record<number, string> = {
	401: 'The API key was refused: it is unknown or revoked',
	403: 'The API key works, but its account is below the Growth tier, which the API requires',
	404: `This address does not look like the Contact Data API (it has no ${PATHS.creditsBalance}): check the Base URL`,
};

/** The legacy request helper's full answer (`resolveWithFullResponse`). */
interface Answer {
	statusCode: number;
	statusMessage?: string;
	body?: unknown;
}

export async function testContactDataApiCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = (credential.data ?? {}) as unknown as ContactDataCredential;
	const baseUrl = String(data.baseUrl ?? '');
	const apiKey = String(data.apiKey ?? '');
	const problem = baseUrlProblem(baseUrl);
	// Refused before sending: the key never goes to an address the node would not use.
	if (problem !== undefined) return { status: 'Error', message: problem.whole };
	const timeoutMs = timeoutMsOf(data);
	// n8n gives a credential test no other request helper than this one, on 1.x and 2.x alike.
	const { request } = this.helpers;
	try {
		const answer = (await request({
			method: 'GET',
			uri: `${normalizeBaseUrl(baseUrl)}${PATHS.creditsBalance}`,
			headers: { Authorization: authorizationOf(apiKey), Accept: 'application/json' },
			json: true,
			// The API never redirects: a Base URL that does is not followed, so the key stays with it.
			followRedirect: false,
			followAllRedirects: false,
			// Every status comes back as an answer, to be read below.
			simple: false,
			resolveWithFullResponse: true,
			timeout: timeoutMs,
		})) as Answer;
		// A 2xx is the API only when its body is a balance: a web site or a proxy's page answers 2xx too.
		const { statusCode, body } = answer;
		const isApi = statusCode >= 200 && statusCode < 300 && balanceSchema.safeParse(body).success;
		if (isApi) return { status: 'OK', message: 'Connection successful!' };
		return { status: 'Error', message: refusalOf(answer) };
	} catch (error) {
		return { status: 'Error', message: scrub(unanswered(baseUrl, timeoutMs, error), apiKey) };
	}
}

function refusalOf({ statusCode, statusMessage, body }: Answer): string {
	if (statusCode >= 200 && statusCode < 300)
		return `The Base URL answered, but not as the Contact Data API does: ${whatCame(body)} came back from ${PATHS.creditsBalance} where the API gives the credit balance. Check the Base URL: it is the API’s address from the Contact Data dashboard`;
	if (statusCode >= 300 && statusCode < 400)
		return 'The Base URL redirects to another address. The key was not sent there: enter the API’s own address as the Base URL.';
	const status = `${statusCode}${statusMessage ? ` ${statusMessage}` : ''}`;
	return (
		REFUSALS[statusCode] ??
		`The Contact Data API answered ${status}, so the key could not be checked: ${statusCode >= 500 ? 'try again later' : 'check the Base URL'}`
	);
}

function whatCame(body: unknown): string {
	if (body === undefined || body === null || body === '') return 'an empty answer';
	if (typeof body !== 'string') return 'JSON of another shape';
	return /^\s*</.test(body) ? 'a web page' : 'text that is not JSON';
}

/** Why a test request got no answer, in the words the node uses for its own calls. */
function unanswered(baseUrl: string, timeoutMs: number, error: unknown): string {
	if (isTimeout(error)) return noAnswerWithin(timeoutMs);
	const code = errorCodeOf(error);
	if (code !== undefined && code in NOTHING_ANSWERS)
		return `${nothingAnswersAt(baseUrl)} (${code}: ${NOTHING_ANSWERS[code]}): check the Base URL, and that the service runs at that address`;
	const reason = code ?? (error instanceof Error ? error.message : String(error));
	return `The Contact Data API could not be reached at the Base URL "${baseUrl}" (${reason})`;
}
