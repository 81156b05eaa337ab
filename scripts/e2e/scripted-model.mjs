#!/usr/bin/env node
// A scripted OpenAI-compatible model for the agent checks (scripts/e2e/agents.sh): no account, no network.
// It listens on a free loopback port (printed as "scripted model: http://127.0.0.1:<port>/v1") and answers
//   GET  /v1/models            one model, "scripted"
//   POST /v1/chat/completions  the next turn of the script: tool calls, or at the end a final answer
//   POST /_script              {"turns": [[{"tool": "<name>", "args": {…}}, …], …]} replaces the script
//   GET  /_requests            every chat request received so far (tools offered, tool results sent back)
//   DELETE /_requests          forgets them
// The turn answered is the number of assistant messages already in the conversation, so one script serves
// every execution. A tool name matches an offered tool ignoring case and anything but letters and digits.
// An argument "$ids:<from>-<to>" becomes the contact ids (ct_…) from..to-1 of the latest search answer, comma-separated.
import { createServer } from 'node:http';

import { withIds } from './scripted-ids.mjs';

let script = { turns: [] };
let requests = [];

const squash = (name) =>
	String(name)
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '');

/** The text of the latest answer of a search tool in the conversation. */
function latestSearchAnswer(messages) {
	const searches = new Set(
		messages
			.flatMap((message) => message.tool_calls ?? [])
			.filter((call) => /search/i.test(call.function?.name))
			.map((call) => call.id),
	);
	const answers = messages.filter(
		(message) => message.role === 'tool' && searches.has(message.tool_call_id),
	);
	return JSON.stringify(answers.at(-1)?.content ?? '');
}

function argumentsOf(args, messages) {
	return JSON.stringify(withIds(args, latestSearchAnswer(messages)));
}

/** The assistant message for this point of the conversation: the script's next tool calls, or a final answer. */
function nextMessage({ messages = [], tools = [] }) {
	const turn = messages.filter((message) => message.role === 'assistant').length;
	const calls = script.turns[turn];
	if (!calls) return { role: 'assistant', content: 'Done: the scripted conversation is over.' };
	const tool_calls = calls.map((call, index) => {
		const offered = tools.find((tool) => squash(tool.function?.name) === squash(call.tool));
		return {
			id: `call_${turn}_${index}`,
			type: 'function',
			function: {
				name: offered?.function.name ?? call.tool,
				arguments: argumentsOf(call.args, messages),
			},
		};
	});
	return { role: 'assistant', content: null, tool_calls };
}

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

function completion(message, model) {
	const finish_reason = message.tool_calls ? 'tool_calls' : 'stop';
	return {
		id: `chatcmpl-${Date.now()}`,
		object: 'chat.completion',
		created: 0,
		model,
		choices: [{ index: 0, message, finish_reason }],
		usage,
	};
}

/** The same answer as server-sent chunks, for a client that asked to stream. */
function streamed(response, message, model) {
	const chunk = (delta, finish_reason = null) =>
		`data: ${JSON.stringify({ id: 'chatcmpl-stream', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
	response.writeHead(200, { 'content-type': 'text/event-stream' });
	const tool_calls = message.tool_calls?.map((call, index) => ({ index, ...call }));
	response.write(
		chunk(
			tool_calls
				? { role: 'assistant', tool_calls }
				: { role: 'assistant', content: message.content },
		),
	);
	response.write(chunk({}, tool_calls ? 'tool_calls' : 'stop'));
	response.end('data: [DONE]\n\n');
}

function send(response, status, body) {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
}

async function bodyOf(request) {
	let text = '';
	for await (const chunk of request) text += chunk;
	return text ? JSON.parse(text) : {};
}

const server = createServer(async (request, response) => {
	const path = new URL(request.url, 'http://localhost').pathname.replace(/\/+$/, '');
	try {
		if (request.method === 'GET' && path === '/v1/models')
			return send(response, 200, {
				object: 'list',
				data: [{ id: 'scripted', object: 'model', owned_by: 'e2e' }],
			});
		if (request.method === 'POST' && path === '/v1/chat/completions') {
			const body = await bodyOf(request);
			requests.push(body);
			const message = nextMessage(body);
			return body.stream
				? streamed(response, message, body.model)
				: send(response, 200, completion(message, body.model));
		}
		if (request.method === 'POST' && path === '/_script') {
			script = await bodyOf(request);
			return send(response, 200, { ok: true });
		}
		if (path === '/_requests' && request.method === 'GET') return send(response, 200, { requests });
		if (path === '/_requests' && request.method === 'DELETE') {
			requests = [];
			return send(response, 200, { ok: true });
		}
		send(response, 404, {
			error: { message: `the scripted model has no ${request.method} ${path}` },
		});
	} catch (error) {
		send(response, 400, { error: { message: String(error?.message ?? error) } });
	}
});

server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
	console.log(`scripted model: http://127.0.0.1:${server.address().port}/v1`);
});
