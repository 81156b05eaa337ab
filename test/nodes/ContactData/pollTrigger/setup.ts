/**
 * Shared set-up of the poll trigger tests: a sandbox, a saved list of contacts added by id, and a
 * PollHost running the Contact Data Poll Trigger as n8n does.
 */
import type { INodeParameters } from 'n8n-workflow';

import { ContactDataApi } from '../../../../credentials/ContactDataApi.credentials';
import { PATHS, type WebhookEvent } from '../../../../nodes/ContactData/shared/client/contract';
import { ContactDataPollTrigger } from '../../../../nodes/ContactData/ContactDataPollTrigger.node';
import { PollHost } from '../../../harness/poll';
import { api } from '../../../harness/api';
import { KEYS, type TestSandbox } from '../../../harness/sandbox';

/** A saved list of the first `count` contacts of a seniority, added by id; returns its id and the ids. */
export async function listById(
	sandbox: TestSandbox,
	name: string,
	seniority: string,
	count: number,
): Promise<{ id: string; contactIds: string[] }> {
	const found = await api<{ results: Array<{ id: string }> }>(sandbox, 'POST', PATHS.search, {
		filters: { seniority: [seniority] },
		limit: count,
	});
	const contactIds = found.body.results.map((contact) => contact.id);
	const created = await api<{ id: string }>(sandbox, 'POST', PATHS.lists, {
		name,
		contact_ids: contactIds,
	});
	if (created.status !== 201) throw new Error(`list ${name}: ${created.status}`);
	return { id: created.body.id, contactIds };
}

export function pollParameters(
	listIds: string[],
	events = ['job_change', 'role_change'],
	simplify = false,
): INodeParameters {
	return {
		events,
		lists: { list: listIds.map((value) => ({ savedList: { __rl: true, mode: 'id', value } })) },
		options: { simplify },
	};
}

export function makePollHost(
	sandbox: TestSandbox,
	parameters: INodeParameters,
	scheduler: 'default' | 'durable' = 'default',
): PollHost {
	return new PollHost({
		nodeType: new ContactDataPollTrigger(),
		parameters,
		credentialTypes: [new ContactDataApi()],
		credentials: { contactDataApi: { apiKey: KEYS.growth, baseUrl: sandbox.url } },
		scheduler,
	});
}

/** Sandbox events (each writes its change into the data set) on a list. */
export async function sandboxEvents(
	sandbox: TestSandbox,
	type: 'job_change' | 'role_change',
	listId: string,
	count = 1,
): Promise<WebhookEvent[]> {
	return (await sandbox.admin.emitEvents({ type, list_id: listId, count }))
		.events as WebhookEvent[];
}

/** What a poll's item and a webhook event must share. */
export function changeOf(json: Record<string, unknown>) {
	const contact = json.contact as { id: string };
	return { type: json.type, list_id: json.list_id, contact_id: contact.id, changes: json.changes };
}
