/**
 * Plays n8n 2.41.1's part for one workflow holding one polling trigger, through n8n-core's own
 * PollContext. What reaches the database follows n8n's rules (see docs/trigger.md, "Polling"):
 * static data is saved when a poll emits (in `__emit`, before the execution starts) and at the end
 * of an activation, never after a silent poll or a manual run. The default scheduler polls one
 * Workflow kept in memory between ticks; the durable scheduler builds it afresh from the database
 * at every tick (so a silent poll's changes are thrown away).
 */
import { ExecutionLifecycleHooks, PollContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { MapCredentialsHelper, MapNodeTypes, makeAdditionalData } from './engine';

const NODE_NAME = 'Poll Trigger';

export interface PollHostOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentialTypes: ICredentialType[];
	credentials: Record<string, ICredentialDataDecryptedObject>;
	scheduler?: 'default' | 'durable';
}

export class PollHost {
	/** The static data as n8n's database holds it. */
	saved: IDataObject = {};
	/** The items of every execution a poll started (one entry per emit). */
	readonly executions: INodeExecutionData[][] = [];
	parameters: INodeParameters;
	private live: Workflow | undefined;

	constructor(private readonly options: PollHostOptions) {
		this.parameters = structuredClone(options.parameters);
	}

	/** Activation (or a restart): a poll at once, then the static data is saved. */
	async activate(): Promise<INodeExecutionData[][] | null> {
		const workflow = this.workflow();
		this.live = workflow;
		const result = await this.poll(workflow, 'trigger');
		this.save(workflow);
		return result;
	}

	/** A scheduled tick. */
	async tick(): Promise<INodeExecutionData[][] | null> {
		const workflow =
			this.options.scheduler === 'durable' || !this.live ? this.workflow() : this.live;
		return await this.poll(workflow, 'trigger');
	}

	/** Two ticks at once on the same workflow (the default scheduler does not prevent it). */
	async overlappingTicks(): Promise<Array<INodeExecutionData[][] | null>> {
		const workflow = this.live ?? this.workflow();
		return await Promise.all([this.poll(workflow, 'trigger'), this.poll(workflow, 'trigger')]);
	}

	/** "Fetch Test Event": a manual run; static data is never saved. */
	async manual(): Promise<INodeExecutionData[][] | null> {
		return await this.poll(this.workflow(), 'manual', false);
	}

	/** n8n stops: whatever was only in memory is gone. */
	deactivate(): void {
		this.live = undefined;
	}

	/** The bytes of the saved static data, as JSON. */
	savedBytes(): number {
		return JSON.stringify(this.saved).length;
	}

	private async poll(
		workflow: Workflow,
		mode: WorkflowExecuteMode,
		emits = true,
	): Promise<INodeExecutionData[][] | null> {
		const node = workflow.getNode(NODE_NAME)!;
		const credentialsHelper = new MapCredentialsHelper(
			Object.fromEntries(this.options.credentialTypes.map((type) => [type.name, type])),
			this.options.credentials,
		);
		const hooks = new ExecutionLifecycleHooks(mode, 'exec-poll', { id: 'wf-poll' } as never);
		const context = new PollContext(
			workflow,
			node,
			makeAdditionalData(credentialsHelper, hooks),
			mode,
			mode === 'manual' ? 'manual' : 'activate',
		);
		const result = await this.options.nodeType.poll!.call(context);
		if (emits && result !== null) {
			this.save(workflow);
			this.executions.push(result[0]);
		}
		return result;
	}

	private save(workflow: Workflow): void {
		if ((workflow.staticData as { __dataChanged?: boolean }).__dataChanged) {
			this.saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			(workflow.staticData as { __dataChanged?: boolean }).__dataChanged = false;
		}
	}

	private workflow(): Workflow {
		const description = this.options.nodeType.description;
		const node: INode = {
			id: 'poll-node',
			name: NODE_NAME,
			type: 'test.contactDataPollTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: structuredClone(this.parameters),
			credentials: Object.fromEntries(
				(description.credentials ?? []).map((credential) => [
					credential.name,
					{ id: '1', name: `${credential.name} test` },
				]),
			),
		};
		return new Workflow({
			id: 'wf-poll',
			nodes: [node],
			connections: {},
			active: true,
			staticData: structuredClone(this.saved),
			nodeTypes: new MapNodeTypes({ 'test.contactDataPollTrigger': this.options.nodeType }),
		});
	}
}
