// The load balancer a queue-mode deployment puts in front of n8n's webhook endpoints (main and webhook
// processors), on loopback, for the queue-mode check (scripts/queue/test.sh). Requests go round-robin;
// the attempts of one delivery (same `webhook-id`) go to one target after another, so a retry reaches
// another process than the attempt before it. Every delivery is kept (headers and raw bytes) to be
// replayed. Its own routes, under /_lb/:
//   POST /_lb/settings {"lose_first_answer": true}  the first attempt of each delivery reaches n8n, but
//                                                  its answer is replaced by 503 (an acknowledgement lost
//                                                  on the way back), so the sender retries
//   GET  /_lb/log                                  every forwarded request: webhook_id, attempt, target,
//                                                  n8n's status, the status answered, n8n's body
//   POST /_lb/replay {"webhook_id", "attempt", "target"}  sends a kept delivery again, byte for byte,
//                                                  to targets[target]; answers n8n's status and body
// Environment: LB_PORT (0 = any free port; the port is printed), LB_TARGETS (comma-separated base URLs),
// LB_MAX_SECONDS (exits by itself after this long, default 3600).
import http from 'node:http';

const targets = (process.env.LB_TARGETS ?? '').split(',').filter(Boolean);
if (targets.length === 0) throw new Error('LB_TARGETS names no target');
const settings = { lose_first_answer: false };
const log = [];
/** Kept deliveries by "<webhook-id> <attempt>". */
const kept = new Map();
/** Attempts so far and the target index of the first, by webhook-id. */
const deliveries = new Map();
let nextTarget = 0;

function readBody(stream) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		stream.on('data', (chunk) => chunks.push(chunk));
		stream.on('end', () => resolve(Buffer.concat(chunks)));
		stream.on('error', reject);
	});
}

function forward(target, request, body) {
	return new Promise((resolve) => {
		const upstream = http.request(
			target + request.url,
			{ method: request.method, headers: { ...request.headers, host: new URL(target).host } },
			async (response) =>
				resolve({
					status: response.statusCode,
					headers: response.headers,
					body: await readBody(response),
				}),
		);
		upstream.on('error', (error) =>
			resolve({ status: 502, headers: {}, body: Buffer.from(String(error.code)) }),
		);
		upstream.end(body);
	});
}

function answerJson(response, status, value) {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(value));
}

/** Picks the target of a request: attempt k of a delivery goes to the target after attempt k-1's. */
function route(webhookId) {
	if (!webhookId) return { attempt: 0, index: nextTarget++ % targets.length };
	const delivery = deliveries.get(webhookId) ?? { attempts: 0, first: nextTarget++ };
	delivery.attempts += 1;
	deliveries.set(webhookId, delivery);
	return {
		attempt: delivery.attempts,
		index: (delivery.first + delivery.attempts - 1) % targets.length,
	};
}

async function proxy(request, response) {
	const body = await readBody(request);
	const webhookId = request.headers['webhook-id'] ?? '';
	const { attempt, index } = route(webhookId);
	if (webhookId)
		kept.set(`${webhookId} ${attempt}`, {
			url: request.url,
			method: request.method,
			headers: request.headers,
			body,
		});
	const upstream = await forward(targets[index], request, body);
	const lose = settings.lose_first_answer && attempt === 1;
	const answered = lose ? 503 : upstream.status;
	log.push({
		webhook_id: webhookId,
		attempt,
		target: index,
		upstream: upstream.status,
		answered,
		body: upstream.body.toString('utf8').slice(0, 300),
	});
	if (lose) return answerJson(response, 503, { lb: 'answer lost on purpose' });
	response.writeHead(upstream.status, upstream.headers);
	response.end(upstream.body);
}

async function replay(request, response) {
	const {
		webhook_id: webhookId,
		attempt,
		target,
	} = JSON.parse((await readBody(request)).toString('utf8'));
	const delivery = kept.get(`${webhookId} ${attempt}`);
	if (!delivery || targets[target] === undefined)
		return answerJson(response, 404, { error: 'no such delivery or target' });
	const upstream = await forward(targets[target], delivery, delivery.body);
	answerJson(response, 200, { status: upstream.status, body: upstream.body.toString('utf8') });
}

const server = http.createServer((request, response) => {
	const handle = async () => {
		if (request.url === '/_lb/settings' && request.method === 'POST') {
			Object.assign(settings, JSON.parse((await readBody(request)).toString('utf8')));
			return answerJson(response, 200, settings);
		}
		if (request.url === '/_lb/log') return answerJson(response, 200, log);
		if (request.url === '/_lb/replay' && request.method === 'POST')
			return await replay(request, response);
		return await proxy(request, response);
	};
	handle().catch((error) => answerJson(response, 500, { error: String(error) }));
});
server.listen(Number(process.env.LB_PORT ?? 0), '127.0.0.1', () => {
	console.log(
		`load balancer on http://127.0.0.1:${server.address().port} -> ${targets.join(', ')}`,
	);
});
setTimeout(() => process.exit(0), Number(process.env.LB_MAX_SECONDS ?? 3600) * 1000).unref();
