#!/usr/bin/env node
// `npm run sandbox:event [-- job_change|role_change|intent [ls_…]]`: makes one event happen in the running
// sandbox (the playground's, or SANDBOX_URL) to a member of a saved list, and the sandbox delivers it, signed,
// to every subscribed Contact Data Trigger: a published workflow, or one listening for a test event.
// Without a list id it uses the account's first saved list, creating one ("Sandbox events: VPs") if there is none.
const [type = 'job_change', listArg] = process.argv.slice(2);
const url = (
	process.env.SANDBOX_URL ?? `http://127.0.0.1:${process.env.PLAYGROUND_SANDBOX_PORT ?? 4010}`
).replace(/\/$/, '');
const key = process.env.SANDBOX_KEY ?? 'sk_sandbox_growth';

async function call(method, path, body, auth = true) {
	const response = await fetch(`${url}${path}`, {
		method,
		headers: {
			'content-type': 'application/json',
			...(auth ? { authorization: `Bearer ${key}` } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	}).catch((error) => {
		throw new Error(
			`the sandbox at ${url} does not answer (${error.cause?.code ?? error.message}): start it with "npm start" or "npm run sandbox"`,
		);
	});
	const answer = await response.json().catch(() => ({}));
	if (!response.ok)
		throw new Error(
			`${method} ${path} answered ${response.status}: ${answer.error?.message ?? JSON.stringify(answer)}`,
		);
	return answer;
}

async function listId() {
	if (listArg) return listArg;
	const { lists } = await call('GET', '/v1/lists?limit=1');
	if (lists.length > 0) return lists[0].id;
	const created = await call('POST', '/v1/lists', {
		name: 'Sandbox events: VPs',
		filters: { seniority: ['vp'] },
	});
	return created.id;
}

try {
	const list = await listId();
	const { events } = await call(
		'POST',
		'/_sandbox/events',
		{ type, list_id: list, count: 1, key },
		false,
	);
	const [event] = events;
	const who = [event.contact?.first_name, event.contact?.last_name].filter(Boolean).join(' ');
	const what = event.changes
		? `${event.changes.previous.title} at ${event.changes.previous.company.name} -> ${event.changes.current.title} at ${event.changes.current.company.name}`
		: event.intent
			? `intent "${event.intent.topic}", score ${event.intent.score}`
			: '';
	console.log(`${event.type} ${event.id} on list ${list}: ${who}${what ? `, ${what}` : ''}`);
	console.log(
		'Delivered to every subscribed Contact Data Trigger (a published workflow, or one listening for a test event).',
	);
} catch (error) {
	console.error(`sandbox:event: ${error.message}`);
	process.exit(1);
}
