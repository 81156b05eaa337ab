/**
 * What a scenario made happen, each kind counted by the rule written beside it: the faults that took
 * effect (not merely drawn), the outcomes the node saw, and the doors of each version. `npm test`'s
 * fixed run must show each kind in at least 1% of its scenarios (model.test.ts).
 */
import type { Sent } from './fakeApi';
import { statementsOf, stillLost, textsOf, type Checked } from './invariants';
import { VERSIONS } from './scenario';

type Rule = (c: Checked) => boolean;

const anySent =
	(test: (x: Sent, c: Checked) => boolean): Rule =>
	(c) =>
		c.sent.some((x) => test(x, c));
const anyText =
	(pattern: RegExp): Rule =>
	(c) =>
		c.outcomes.some((o) => textsOf(o).some((text) => pattern.test(text)));
/** A tool answer says nothing is left of a cap over time. */
const anyLeft = (c: Checked, field: string) =>
	c.outcomes.some((o) =>
		o.items
			.flatMap(({ json }) => (Array.isArray(json.response) ? json.response : [json]))
			.some((json) => (json as { credits?: Record<string, unknown> }).credits?.[field] === 0),
	);
const tookEffect = (fault: Sent['effect'], also: (x: Sent) => boolean = () => true): Rule =>
	anySent((x) => x.effect === fault && also(x));
const answered = (x: Sent) => x.status >= 200 && x.status < 300;

/** Each fault that took effect: the API or the network did what it says. */
const FAULTS_TAKEN: Record<string, Rule> = {
	'lost before the API carried it out': tookEffect('lostBefore', (x) => x.status === 0),
	'lost after the API carried it out': tookEffect('lostAfter', (x) => x.status === 0),
	'timed out': tookEffect('timeout', (x) => x.status === 0),
	'402 insufficient credits': anySent((x) => x.status === 402),
	'429 until the node gave up': anySent((x) => x.status === 429),
	'503 unavailable': anySent((x) => x.status === 503),
	'a fault on a resend (429, 5xx, lost)': anySent(
		(x) =>
			x.repeat &&
			['rateLimited', 'unavailable', 'lostBefore', 'lostAfter', 'timeout'].includes(x.effect),
	),
	'ids left out, not debited': tookEffect('omitted', (x) => x.leftOut),
	'ids left out and debited': tookEffect('omittedCharged', (x) => x.leftOut),
	'ids left out, charge unreadable': tookEffect('omittedUnreadable', (x) => x.leftOut),
	'a replay without Idempotent-Replayed': tookEffect(
		'replayWithout',
		(x) => x.replayed && answered(x),
	),
	'a first answer with Idempotent-Replayed': tookEffect(
		'replayForged',
		(x) => !x.replayed && answered(x),
	),
	'Stop pressed during a request': anySent((x) => x.stopped),
	'midnight (UTC) passed during a run': (c) =>
		c.sent.some((x) => new Date(x.at).getUTCDate() !== new Date(x.after).getUTCDate()),
};

/** Each outcome the node saw. */
const OUTCOMES: Record<string, Rule> = {
	charged: anySent((x) => x.debited > 0 && x.delivered),
	'free because already held': anySent((x) => x.free && x.delivered && !x.replayed),
	'a charge held back': (c) => c.outcomes.some((o) => statementsOf(o).some((t) => t.heldBack > 0)),
	'refused by the API (4xx)': anySent((x) => x.status >= 400 && x.status < 500 && x.status !== 429),
	'refused by a cap before sending': anyText(/is not enough/),
	'nothing listening': anyText(/Nothing answers at/),
	'an answer lost until the end of its run': (c) =>
		c.outcomes.some((o) => stillLost(c.sent.filter((x) => x.run === o.tag)).length > 0),
	'left-out ids asked again': (c) =>
		c.sent.some(
			(x, i) =>
				x.leftOut &&
				c.sent
					.slice(i + 1)
					.some(
						(y) => y.run === x.run && y.key !== x.key && y.ids.every((id) => x.ids.includes(id)),
					),
		),
	'left-out ids held back': (c) =>
		c.sent.some((x) => x.leftOut) &&
		c.outcomes.some((o) => statementsOf(o).some((t) => t.heldBack > 0)),
	'unreadable answer: not JSON': tookEffect('notJson', answered),
	'unreadable answer: fails the schema': tookEffect('badSchema', answered),
	'unreadable answer: a charge the contract rules out': anySent(
		(x) => ['unreadable', 'negative', 'fraction'].includes(x.effect) && x.delivered,
	),
	'unreadable answer: a charge above the worst case': anySent(
		(x) => ['aboveWorst', 'overcharge'].includes(x.effect) && x.delivered,
	),
	'cap reached: Max Credits': anyText(
		/Max Credits of \d+ (is not enough|reached)|not sent \(Max Credits reached\)/,
	),
	'cap reached: Max Credits per Day': (c) =>
		anyText(/Max Credits per Day of \d+/)(c) || anyLeft(c, 'left_today'),
	'cap reached: Max Credits per MCP Session': (c) =>
		anyText(/Max Credits per MCP Session of \d+/)(c) || anyLeft(c, 'left_in_session'),
};

const DOORS = ['canvas', 'AI agent tool', 'MCP with a session', 'MCP without a session'] as const;

/** The door a run came through. */
function doorsOf({ s, runs }: Checked): Set<(typeof DOORS)[number]> {
	return new Set(
		Object.values(runs).map((run) =>
			!run.tool
				? 'canvas'
				: s.where.kind === 'tool' && s.where.mcp
					? run.session
						? 'MCP with a session'
						: 'MCP without a session'
					: 'AI agent tool',
		),
	);
}

/** Each door for each version: a run came through it. */
const DOOR_RULES: Record<string, Rule> = Object.fromEntries(
	VERSIONS.flatMap((version) =>
		DOORS.map((door) => [
			`door: ${door}, version ${version}`,
			(c: Checked) => c.s.version === version && doorsOf(c).has(door),
		]),
	),
);

export const KINDS: Record<string, Record<string, Rule>> = {
	'fault took effect': FAULTS_TAKEN,
	'the node saw': OUTCOMES,
	door: DOOR_RULES,
};

/** The kinds a scenario made happen. */
export function happenedIn(c: Checked): string[] {
	return Object.values(KINDS).flatMap((rules) =>
		Object.entries(rules)
			.filter(([, rule]) => rule(c))
			.map(([kind]) => kind),
	);
}

export const ALL_KINDS = Object.values(KINDS).flatMap((rules) => Object.keys(rules));

/** How many scenarios show each kind, in percent, as a table. */
export function coverageTable(counts: Map<string, number>, total: number): string {
	return ALL_KINDS.map(
		(kind) =>
			`${kind.padEnd(52)} ${((100 * (counts.get(kind) ?? 0)) / total).toFixed(1).padStart(5)}%`,
	).join('\n');
}
