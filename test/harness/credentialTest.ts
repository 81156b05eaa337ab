/**
 * Runs a credential's test the way n8n 2.41.1's credentials tester does
 * (`CredentialsTester.testCredentials` in packages/cli/src/services/credentials-tester.service.ts),
 * finding it as the tester does: the credential type's own declarative test first, else the
 * function a node using the credential names as `testedBy`. A declarative test runs through
 * n8n-core's real `RoutingNode` over a stand-in node whose only property routes the test request,
 * then the tester's own reading of the outcome; a function test is called on n8n-core's real
 * `CredentialTestContext`. The tester lives in the `n8n` server package, not a dependency here, so
 * its lookup and reading are restated below.
 */
import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import {
	NodeConnectionTypes,
	Workflow,
	createEmptyRunExecutionData,
	type ICredentialDataDecryptedObject,
	type ICredentialTestFunction,
	type ICredentialType,
	type INode,
	type INodeType,
} from 'n8n-workflow';

import {
	MapCredentialsHelper,
	MapNodeTypes,
	makeAdditionalData,
	manualExecutionHooks,
} from './engine';

/** What the editor shows after Save or Retry: the tester's `{ status, message }`. */
export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** The credential's test, found and run as n8n's tester does; `nodeTypes` are the nodes that use it. */
export async function testCredential(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
	nodeTypes: INodeType[],
): Promise<CredentialTestResult> {
	if (credentialType.test) return await runRequestTest(credentialType, data);
	const credentialTest = testedByNode(credentialType.name, nodeTypes);
	const additionalData = makeAdditionalData(
		new MapCredentialsHelper(
			{ [credentialType.name]: credentialType },
			{ [credentialType.name]: data },
		),
		manualExecutionHooks('credential-test', {
			id: 'wf-test',
			name: 'test',
			nodes: [],
			connections: {},
		}),
	);
	const credentialsDecrypted = { id: 'test', name: 'test', type: credentialType.name, data };
	const result = await credentialTest.call(
		new CredentialTestContext(additionalData),
		credentialsDecrypted,
	);
	return { status: result.status, message: result.message };
}

/** The tester's `getCredentialTestFunction` for a credential without a declarative test. */
function testedByNode(credentialName: string, nodeTypes: INodeType[]): ICredentialTestFunction {
	for (const nodeType of nodeTypes) {
		for (const { name, testedBy } of nodeType.description.credentials ?? []) {
			if (name !== credentialName || typeof testedBy !== 'string') continue;
			const credentialTest = nodeType.methods?.credentialTest?.[testedBy];
			if (!credentialTest)
				throw new Error(
					`${nodeType.description.name} names ${testedBy}, but has no such credentialTest`,
				);
			return credentialTest;
		}
	}
	throw new Error(`No testing function found for ${credentialName}`);
}

/** The tester's `runRequestTest`: a credential type's declarative test. */
async function runRequestTest(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const testRequest = credentialType.test!;
	// The tester's stand-in: n8n's No Operation node, its properties replaced by the test request.
	const nodeType: INodeType = {
		description: {
			displayName: 'No Operation, do nothing',
			name: 'noOp',
			group: ['organization'],
			version: 1,
			description: '',
			defaults: { name: 'No Operation, do nothing' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: 'noOp',
		typeVersion: 1,
		position: [0, 0],
		credentials: { [credentialType.name]: { id: 'test', name: 'test' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new MapNodeTypes({ noOp: nodeType }),
	});
	const additionalData = makeAdditionalData(
		new MapCredentialsHelper(
			{ [credentialType.name]: credentialType },
			{ [credentialType.name]: data },
		),
		manualExecutionHooks('credential-test', {
			id: 'wf-test',
			name: 'test',
			nodes: [node],
			connections: {},
		}),
	);
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const credentialsDecrypted = { id: 'test', name: 'test', type: credentialType.name, data };
	try {
		await workflow.expression.acquireIsolate();
		await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
	} catch (error) {
		return readFailure(testRequest.rules ?? [], error as TesterError);
	} finally {
		await workflow.expression.releaseIsolate();
	}
	return { status: 'OK', message: 'Connection successful!' };
}

type TesterError = {
	message: string;
	cause?: { code?: string; response?: { status: number; statusText?: string } };
};

/** The tester's catch block: an answer goes through the rules, else the cause's code, else the message. */
function readFailure(
	rules: NonNullable<ICredentialType['test']>['rules'] & object,
	error: TesterError,
): CredentialTestResult {
	if (error.cause?.response) {
		const { status, statusText } = error.cause.response;
		for (const rule of rules) {
			if (rule.type === 'responseCode' && rule.properties.value === status) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		if (status < 199 || status > 299) {
			return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
		}
	} else if (error.cause?.code) {
		return { status: 'Error', message: error.cause.code };
	}
	return { status: 'Error', message: error.message.toString() };
}
