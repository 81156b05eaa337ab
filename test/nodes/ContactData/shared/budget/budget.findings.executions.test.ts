/**
 * Issue 37's findings (measured on 2026-11-28) that take several nodes or runs in one execution:
 * two tool nodes on two accounts, and a node run twice (two run indexes). In n8n's engine against a
 * model of the API on loopback (one account per API key); on `ad1acdf` each fails for the reason
 * the finding gives.
 */
import { NodeConnectionTypes, type INodeExecutionData, type ITaskData } from 'n8n-workflow';

import { ContactDataApi } from '../../../../../credentials/ContactDataApi.credentials';
import { ContactData } from '../../../../../nodes/ContactData/ContactData.node';
import { asToolType, start, toolsAgentType } from '../../../../harness/agent';
import { nodeOf, runWorkflow } from '../../../../harness/workflow';
import { startContactApi, type ContactApi } from '../../../../support/contactApi.cjs';
import { unlockParameters } from '../../setup';
import { chargesStated, contactIds } from './findings';

let api: ContactApi | undefined;
afterEach(async () => {
	await api?.close();
	api = undefined;
});

const credential = (id: string) => ({ contactDataApi: { id, name: `Contact Data ${id}` } });
const credentialsOn = (on: ContactApi) => ({
	A: { apiKey: 'sk_account_a', baseUrl: on.url },
	B: { apiKey: 'sk_account_b', baseUrl: on.url },
});
const main = (...nodes: string[]) => ({
	main: [nodes.map((node) => ({ node, type: NodeConnectionTypes.Main, index: 0 }))],
});

it('finding 2: tool B (another account) never prices tool A’s contacts at 0: at most 10 debited in all', async () => {
	api = await startContactApi();
	const ids = contactIds('t', 10).join(',');
	const tool = (name: string, id: string) =>
		nodeOf(name, 'test.contactDataTool', 400, {
			typeVersion: 2,
			parameters: { resource: 'contact', operation: 'unlock', maxCredits: 10 },
			credentials: credential(id),
		});
	const toAgent = { ai_tool: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]] };
	const { run } = await runWorkflow({
		nodes: [
			nodeOf('Start', 'test.start', 0),
			nodeOf('Agent', 'test.agent', 200),
			tool('Tool A', 'A'),
			tool('Tool B', 'B'),
		],
		connections: { Start: main('Agent'), 'Tool A': toAgent, 'Tool B': toAgent },
		nodeTypes: {
			'test.start': start,
			'test.agent': toolsAgentType([
				[{ tool: 'Tool A', input: { contact_ids: ids } }],
				[{ tool: 'Tool B', input: { contact_ids: ids } }],
			]),
			'test.contactDataTool': asToolType(new ContactData()),
		},
		credentialTypes: [new ContactDataApi()],
		credentials: credentialsOn(api),
	});
	expect(run.data.resultData.runData['Tool B']).toHaveLength(1);
	expect(api.account('sk_account_a').debited).toBe(10);
	// Max Credits 10 is shared by the execution's tool calls: B prices its ids in full and is refused.
	expect(api.debited()).toBeLessThanOrEqual(10);
	expect(JSON.stringify(run.data.resultData)).not.toMatch(/impossible charge/);
});

it('finding 5: a loop’s second run of the same ids reports 0 credits charged', async () => {
	api = await startContactApi();
	// The node has two parents: n8n runs it once for each, run index 0 then 1, in one execution.
	const { tasks } = await runWorkflow({
		nodes: [
			nodeOf('Start', 'test.start', 0),
			nodeOf('Relay', 'test.start', 200),
			nodeOf('Contact Data', 'test.contactData', 400, {
				typeVersion: 2,
				parameters: unlockParameters({ maxCredits: 10 }),
				credentials: credential('A'),
			}),
		],
		connections: { Start: main('Contact Data', 'Relay'), Relay: main('Contact Data') },
		nodeTypes: { 'test.start': start, 'test.contactData': new ContactData() },
		credentialTypes: [new ContactDataApi()],
		credentials: credentialsOn(api),
		input: contactIds('l', 2).map((id) => ({ id })),
	});
	const runs = tasks('Contact Data');
	expect(runs).toHaveLength(2);
	expect(runs.map((task) => task.error)).toEqual([undefined, undefined]);
	expect(api.debited()).toBe(2);
	const charged = (task: ITaskData) =>
		((task.data?.main?.[0] ?? []) as INodeExecutionData[]).map(
			(item) => item.json.credits_charged_in_run,
		);
	const notice = (task: ITaskData) => (task.hints ?? []).map((hint) => hint.message).join(' ');
	expect(charged(runs[0])).toEqual([2, 2]);
	expect(chargesStated(notice(runs[0]))).toEqual([2]);
	expect(charged(runs[1])).toEqual([0, 0]);
	expect(chargesStated(notice(runs[1]))).toEqual([0]);
});
