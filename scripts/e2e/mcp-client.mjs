#!/usr/bin/env node
// An MCP client for the MCP checks (scripts/e2e/agents.sh), on the official SDK:
//   node scripts/e2e/mcp-client.mjs <server URL> <http|sse> '<calls JSON>'
// connects over Streamable HTTP or SSE (one session), lists the tools, makes the calls in order and prints one
// JSON object: {"session": <id or null>, "tools": [{name, description, parameters}], "calls": [{name, args, isError, text, bytes}]}.
// A call is {"tool": "<name>", "args": {…}}; the tool name matches ignoring case and anything but letters and
// digits; an argument "$ids:<from>-<to>" becomes the contact ids (ct_…) from..to-1 of the latest search answer.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { withIds } from './scripted-ids.mjs';

const [url, transportName, callsJson = '[]'] = process.argv.slice(2);
const squash = (name) =>
	String(name)
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '');

const textOf = (result) => (result.content ?? []).map((part) => part.text ?? '').join('');

async function main() {
	const transport =
		transportName === 'sse'
			? new SSEClientTransport(new URL(url))
			: new StreamableHTTPClientTransport(new URL(url));
	const client = new Client({ name: 'contact-data-e2e', version: '1.0.0' });
	await client.connect(transport);
	const { tools } = await client.listTools();
	const calls = [];
	let searchText = '';
	for (const call of JSON.parse(callsJson)) {
		const tool = tools.find((offered) => squash(offered.name) === squash(call.tool));
		if (!tool)
			throw new Error(
				`no tool like "${call.tool}" among ${tools.map((offered) => offered.name).join(', ')}`,
			);
		const args = withIds(call.args, searchText);
		const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
			timeout: 120000,
		});
		const text = textOf(result);
		if (/search/i.test(tool.name)) searchText = text;
		calls.push({
			name: tool.name,
			args,
			isError: result.isError === true,
			text,
			bytes: Buffer.byteLength(text),
		});
	}
	const session = transport.sessionId ?? null;
	await client.close();
	console.log(
		JSON.stringify({
			session,
			tools: tools.map(({ name, description, inputSchema }) => ({
				name,
				description,
				parameters: inputSchema,
			})),
			calls,
		}),
	);
}

main().catch((error) => {
	console.error(`mcp-client: ${error?.stack ?? error}`);
	process.exit(1);
});
