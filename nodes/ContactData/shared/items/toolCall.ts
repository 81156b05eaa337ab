/** What n8n tells a run about the agent calling it: whether as a tool, for which MCP session. */
import type { IDataObject, IExecuteData, IExecuteFunctions } from 'n8n-workflow';

import { isToolCopy } from '../parameters/versions';

/** n8n 1.x's context has no isToolExecution: there the name ("…Tool") alone tells. */
export function runsAsTool(context: IExecuteFunctions): boolean {
	const saysTool = typeof context.isToolExecution === 'function' && context.isToolExecution();
	return saysTool || isToolCopy(context.getNode());
}

/** The only node whose request names an MCP session. */
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * n8n hands the MCP Server Trigger's request (2.1, Streamable HTTP: `{ body, headers }`) as the
 * tool's execute data: with the trigger as its node, or, on a queue-mode worker, with the tool
 * alone and nothing before it. Never from an input item: any item may carry `headers`.
 */
export function mcpSessionIdOf(context: IExecuteFunctions): string | undefined {
	if (!runsAsTool(context)) return undefined;
	const { node, source, data } = context.getExecuteData?.() ?? ({} as Partial<IExecuteData>);
	const onWorker =
		source === null && node?.name === context.getNode().name && context.getMode() === 'webhook';
	if (node?.type !== MCP_TRIGGER && !onWorker) return undefined;
	const request = data?.main?.[0]?.[0]?.json as { headers?: IDataObject } | undefined;
	const id = request?.headers?.['mcp-session-id'];
	return typeof id === 'string' && id !== '' ? id : undefined;
}
