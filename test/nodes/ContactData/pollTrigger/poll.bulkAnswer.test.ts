/**
 * A poll reads a large list through the signed URL the export answers with (202), checked as
 * Export checks it: an answer without a usable URL fails naming what it lacks, and nothing moves.
 */
import { ContactDataApi } from '../../../../credentials/ContactDataApi.credentials';
import { ContactDataPollTrigger } from '../../../../nodes/ContactData/ContactDataPollTrigger.node';
import { PollHost } from '../../../harness/poll';
import { KEYS } from '../../../harness/sandbox';
import { listenLocally } from '../../../support/httpServer.cjs';
import { pollParameters } from './setup';

it('an export answered 202 without a download URL fails naming what is missing, saving nothing', async () => {
	const server = await listenLocally((_request, response) => {
		response.writeHead(202, { 'Content-Type': 'application/json' });
		response.end(JSON.stringify({ format: 'json', contact_count: 200000 }));
	});
	try {
		const host = new PollHost({
			nodeType: new ContactDataPollTrigger(),
			parameters: pollParameters(['ls_abc']),
			credentialTypes: [new ContactDataApi()],
			credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: server.url } },
		});
		const failure = (await host.activate().catch((error: unknown) => error)) as Error & {
			description?: string;
		};
		expect(failure.name).toBe('NodeApiError');
		expect(failure.message).toBe(
			'The API answered the export of a large list without a usable `url`, `expires_at`',
		);
		expect(failure.description).toMatch(/^Nothing was compared; the next poll tries again/);
		expect(host.saved).toEqual({});
	} finally {
		await server.close();
	}
});
