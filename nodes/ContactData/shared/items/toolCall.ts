/**
 * What n8n tells a node run about the agent calling it: whether it runs as a tool, and for which
 * MCP session.
 */
import type { IDataObject, IExecuteData, IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether the node runs as an agent's tool: named "…Tool" by n8n, or said so by LangChain. n8n 1.x's
 * context has no isToolExecution: there the name alone tells.
 */
export function runsAsTool(context: IExecuteFunctions): boolean {
	const saysTool = typeof context.isToolExecution === 'function' && context.isToolExecution();
	return saysTool || context.getNode().type.endsWith('Tool');
}

/** The type of n8n's MCP Server Trigger, the only node whose request names an MCP session. */
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * The MCP session id of the request n8n's MCP Server Trigger (2.1, Streamable HTTP) runs this tool
 * call for. n8n hands the trigger's request (`{ body, headers }`) as the tool's execute data: with
 * the trigger as its node, or, on a queue-mode worker, with the tool alone and nothing before it.
 * Never from an input item: any item may carry `headers` (a Webhook node's, a sheet's column).
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
