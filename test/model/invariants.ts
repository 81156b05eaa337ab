/**
 * The invariants of issue 37 (a–f), checked on one scenario's node runs against what the fake API
 * did, and the tool answer's money fields (g). Each is a function of what happened; each has a test
 * that feeds it a violation (invariants.test.ts).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { moneyOf, type MoneyStatement } from '../support/money.cjs';
import { isKnown, LEVELS, personEmail } from './accounts';
import type { Sent } from './fakeApi';
import type { NodeRunOutcome, RunOf } from './driver';
import type { Scenario } from './scenario';

export interface Checked {
	s: Scenario;
	sent: Sent[];
	outcomes: NodeRunOutcome[];
	/** Every run marked, by tag: a run stopped before it ended has no outcome. */
	runs: Record<string, RunOf>;
	/** The seam's time the execution took, and the most its calls' timeouts and waits allow. */
	seamMs: number;
	seamBoundMs: number;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const debitOf = (sent: Sent[]) => sum(sent.map((x) => x.debited));
/** No answer came back (lost, timed out, or Stop pressed) to a call that may have charged. */
const isLost = (x: Sent) => (x.status === 0 || x.stopped) && !x.repeat;
/** A definite answer: a 2xx, or a refusal that is not "try again" (a 429 or a 5xx is not). */
const settles = (x: Sent) => x.status >= 200 && x.status < 500 && x.status !== 429;
/** Lost, and its key got no definite answer later among `sent` (a replay that answered settles it). */
export const stillLost = (sent: Sent[]) =>
	sent.filter(
		(x, i) =>
			isLost(x) &&
			!sent
				.slice(i + 1)
				.some((later) => later.key === x.key && later.apiKey === x.apiKey && settles(later)),
	);
/** The one call an overcharging API may take past a cap. */
const allowanceOf = (sent: Sent[]) =>
	Math.max(0, ...sent.filter((x) => x.effect === 'overcharge').map((x) => x.debited));
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Requests up to the end of run `tag` (up to the next run's first): what its answer knows of. */
function upToEndOf({ sent, runs }: Pick<Checked, 'sent' | 'runs'>, tag: string): Sent[] {
	const tags = Object.keys(runs);
	const next = runs[tags[tags.indexOf(tag) + 1]];
	return sent.slice(0, next?.from ?? sent.length);
}

/**
 * a: no cap is passed by more than an overcharging API's one call. Max Credits per node run on the
 * canvas and per MCP call; tool calls of an execution share it, each spending only while all of them
 * so far fit its own. Per Day per node and UTC day a request was sent; per MCP Session per session.
 */
function capViolations({ s, sent, runs }: Checked): string[] {
	const found: string[] = [];
	const check = (what: string, max: number, within: Sent[]) => {
		const debited = debitOf(within);
		if (debited - allowanceOf(within) > max)
			found.push(`a-cap: ${what} ${max}, the API debited ${debited}`);
	};
	const tags = Object.keys(runs);
	for (const tag of tags) {
		const { maxCredits, execution } = runs[tag];
		const own = sent.filter((x) => x.run === tag);
		if (debitOf(own) === 0) continue;
		const shared = upToEndOf({ sent, runs }, tag).filter(
			(x) => runs[x.run]?.execution === execution,
		);
		check(`Max Credits (${tag})`, maxCredits, runs[tag].tool ? shared : own);
	}
	if (s.version === 1) return found;
	const group = (keyOf: (x: Sent) => string | undefined) => {
		const groups = new Map<string, Sent[]>();
		for (const x of sent) {
			const key = keyOf(x);
			if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), x]);
		}
		return groups;
	};
	if (s.maxCreditsPerDay > 0)
		for (const [day, within] of group((x) => `${runs[x.run]?.node} on ${dayOf(x.at)}`))
			check(`Max Credits per Day (${day})`, s.maxCreditsPerDay, within);
	if (s.maxCreditsPerSession > 0)
		for (const [session, within] of group((x) => runs[x.run]?.session))
			check(`Max Credits per MCP Session (${session})`, s.maxCreditsPerSession, within);
	return found;
}

/** An item's answers: an MCP client gets the tool's items inside `response`. */
const answersOf = (json: IDataObject): IDataObject[] =>
	Array.isArray(json.response) ? (json.response as IDataObject[]) : [json];

/** What a tool answer could not do: its `not_done` entries. */
const notDoneOf = (json: IDataObject): IDataObject[] =>
	Array.isArray(json.not_done) ? (json.not_done as IDataObject[]) : [];

const errorText = (json: { message?: unknown; error?: unknown; description?: unknown }) =>
	[json.message ?? json.error, json.description].filter(Boolean).join(' ');

/** The error texts of a run, each with the input item it is of (when known). */
function errorTextsOf(o: NodeRunOutcome): Array<{ text: string; item?: number; id?: string }> {
	const ended = o.error
		? [
				{
					text: errorText(o.error),
					item: (o.error as { context?: { itemIndex?: number } }).context?.itemIndex,
				},
			]
		: [];
	const items = o.items.flatMap((item) =>
		answersOf(item.json)
			.flatMap((json) => [json, ...notDoneOf(json)])
			.filter((json) => json.error !== undefined)
			.map((json) => ({
				text: errorText(json),
				item: itemOf(item),
				id: (json.id ?? json.email) as string | undefined,
			})),
	);
	return [...ended, ...items];
}

export const textsOf = (o: NodeRunOutcome): string[] => [
	...o.hints,
	...errorTextsOf(o).map(({ text }) => text),
];

/** Contacts a node run outputs as records (passed-over items and errors are not records). */
function recordIds(value: unknown, into = new Set<string>()): Set<string> {
	if (Array.isArray(value)) for (const inner of value) recordIds(inner, into);
	else if (value && typeof value === 'object') {
		const json = value as IDataObject;
		if (
			typeof json.id === 'string' &&
			json.error === undefined &&
			json.unlock_skipped === undefined &&
			json.unlocked !== false
		)
			into.add(json.id);
		for (const inner of Object.values(json))
			if (inner && typeof inner === 'object') recordIds(inner, into);
	}
	return into;
}

/** Every statement of a run that gives a charge: texts, and the records' and tool answer's fields. */
export function statementsOf(o: NodeRunOutcome): Array<MoneyStatement & { source: string }> {
	const texts = textsOf(o).map((text) => ({ ...moneyOf(text), source: text }));
	const heldBack = Math.max(0, ...texts.map((t) => t.heldBack));
	const fields = o.items.flatMap(({ json }) => {
		const credits = json.credits as IDataObject | undefined;
		const charged = json.credits_charged_in_run ?? credits?.spent_by_this_call;
		return typeof charged === 'number'
			? [{ charged, heldBack, notCharged: false, source: `${JSON.stringify(json).slice(0, 120)}` }]
			: [];
	});
	return [...texts, ...fields];
}

const NAMES = /ct_\d+|p\d+@people\.example/g;

/** The names a request's debit is of, in the node's words: contact ids, or the person's email. */
const chargedNames = (x: Sent) =>
	x.debited > 0 ? (x.ids[0].startsWith('ct_') ? x.charged : x.ids) : [];

/**
 * "Not charged" is said only of what the API did not charge: never of a contact it debited in the
 * run, nor of one (or, naming none, of an item's) whose call's answer is still lost.
 */
function notChargedViolations(o: NodeRunOutcome, inRun: Sent[]): string[] {
	const lost = new Set(stillLost(inRun).flatMap((x) => x.ids));
	const debited = new Set(inRun.flatMap(chargedNames));
	return errorTextsOf(o)
		.filter(({ text }) => moneyOf(text).notCharged)
		.filter(({ text, item }) => {
			const named = text.match(NAMES) ?? [];
			if (named.length) return named.some((name) => debited.has(name) || lost.has(name));
			const whose = item === undefined ? [...lost] : o.wanted[item];
			return whose.some((name) => lost.has(name));
		})
		.map(
			({ text }) =>
				`c-not-charged: ${o.tag} says "not charged" of a contact charged or lost: "${text}"`,
		);
}

/**
 * b: what the API charged for is output as a record, or named: by an error that names it, by a
 * hold-back that covers it, or, for a run that ended in an error, by the error's charge.
 */
function outputViolations(o: NodeRunOutcome, inRun: Sent[]): string[] {
	const records = recordIds(o.items.map((i) => i.json));
	const named = new Set(errorTextsOf(o).flatMap(({ text }) => text.match(NAMES) ?? []));
	const debited = inRun.flatMap((x) => (x.debited > 0 ? x.charged : []));
	const unnamed = [...new Set(debited)].filter(
		(id) => !records.has(id) && !named.has(id) && !named.has(personEmail(Number(id.slice(3)))),
	);
	if (unnamed.length === 0) return [];
	const statements = statementsOf(o);
	const heldBack = Math.max(0, ...statements.map((t) => t.heldBack));
	const charged = Math.max(0, ...statements.map((t) => t.charged ?? 0));
	// Each contact costs at least a credit: what the run tells must reach that far.
	if (charged + heldBack >= unnamed.length) return [];
	return [
		`b-output: ${o.tag}: the API charged for ${unnamed.join(', ')}, not in the output, and nothing names the charge`,
	];
}

/** c: every statement of a charge is between what the API debited and that plus what it holds back. */
function moneyViolations(o: NodeRunOutcome, inRun: Sent[]): string[] {
	const found: string[] = [];
	const debited = debitOf(inRun);
	for (const { charged, heldBack, source } of statementsOf(o))
		if (charged !== undefined && !(charged <= debited && debited <= charged + heldBack))
			found.push(
				`${charged > debited ? 'c-over' : 'c-under'}: ${o.tag} says ${charged} charged, ${heldBack} held back; the API debited ${debited}: "${source}"`,
			);
	const lost = stillLost(inRun);
	if (
		o.error &&
		(debited > 0 || lost.length > 0) &&
		moneyOf(errorText(o.error)).charged === undefined
	)
		found.push(
			`c-hidden: ${o.tag} ended in an error that does not say what the run charged (${debited}): "${o.error.message}"`,
		);
	found.push(...notChargedViolations(o, inRun));
	for (const text of textsOf(o).filter((t) => /\btwice\b|asked again/i.test(t))) {
		const once = (text.match(NAMES) ?? []).filter(
			(name) => inRun.filter((x) => x.ids.includes(name)).length < 2,
		);
		if (once.length)
			found.push(`c-twice: ${o.tag} says ${once.join(', ')} asked twice, sent once: "${text}"`);
	}
	return found;
}

/**
 * d: no contact its execution (one ledger: its runs, tries and tool calls) already has is sent under
 * a new key of the same account; a key goes again with its body.
 */
function sendViolations({ sent, runs }: Checked): string[] {
	const found: string[] = [];
	const keys = new Set<string>();
	const had = new Map<string, number>();
	for (const x of sent) {
		const rank = LEVELS.indexOf(x.level) + 1;
		const fresh = !keys.has(`${x.apiKey}|${x.key}`);
		keys.add(`${x.apiKey}|${x.key}`);
		const ledger = `${runs[x.run]?.execution}|${x.apiKey}`;
		const again = x.ids.filter((id) => (had.get(`${ledger}|${id}`) ?? 0) >= rank);
		if (fresh && again.length)
			found.push(`d-new-key: ${x.run} sent ${again.join(', ')} again under a new key`);
		if (x.status === 409) found.push(`d-conflict: ${x.run} sent a key again with another body`);
		for (const id of x.answered)
			had.set(`${ledger}|${id}`, Math.max(rank, had.get(`${ledger}|${id}`) ?? 0));
	}
	return found;
}

function itemOf(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return (paired as { item?: number } | undefined)?.item;
}

/** e: an error of a contact or person names its own item, on the canvas and in a tool answer. */
function itemViolations(o: NodeRunOutcome): string[] {
	return errorTextsOf(o).flatMap(({ text, item, id }) => {
		if (item === undefined) return [];
		const named = /\[item (\d+)\]/.exec(text);
		const wrongItem = named !== null && Number(named[1]) !== item;
		const notWanted = id !== undefined && !o.wanted[item]?.includes(id);
		return wrongItem || notWanted
			? [`e-item: ${o.tag} error of item ${item} (${id}) says "${text}"`]
			: [];
	});
}

/**
 * g: the tool answer's money fields. `spent_in_run` never claims more than the API debited in its
 * execution so far; `left` (and `left_today`, `left_in_session`) never claims room that the API's
 * debits already took; `held_today` and `held_in_session` hold at least the debits of answers lost
 * in that cap so far.
 */
function toolFieldViolations({ s, sent, runs }: Checked, o: NodeRunOutcome): string[] {
	const credits = o.items
		.flatMap(({ json }) => answersOf(json))
		.map((json) => json.credits as IDataObject | undefined)
		.find(Boolean);
	if (!credits || !runs[o.tag] || credits.max_credits === null) return [];
	const { execution, node, session } = runs[o.tag];
	const before = upToEndOf({ sent, runs }, o.tag);
	const ofExecution = before.filter((x) => runs[x.run]?.execution === execution);
	const allowance = allowanceOf(before);
	const found: string[] = [];
	const claim = (field: string, ok: boolean, what: string) => {
		if (!ok) found.push(`g-${field}: ${o.tag} says ${field} ${String(credits[field])}; ${what}`);
	};
	const spent = Number(credits.spent_in_run);
	claim('spent_in_run', spent <= debitOf(ofExecution), `the API debited ${debitOf(ofExecution)}`);
	const left = Number(credits.left);
	const maxCredits = Number(credits.max_credits);
	// What is left is never more than the cap less what the API took (0 once past it).
	const roomOf = (max: number, debited: number) => Math.max(0, max - debited + allowance);
	claim('left', left <= roomOf(maxCredits, debitOf(ofExecution)), `Max Credits ${maxCredits}`);
	const last = before.at(-1);
	const today = dayOf(last?.after ?? 0);
	const inCap = {
		left_today: before.filter((x) => runs[x.run]?.node === node && dayOf(x.at) === today),
		left_in_session: before.filter((x) => session && runs[x.run]?.session === session),
	};
	const maxOf = { left_today: s.maxCreditsPerDay, left_in_session: s.maxCreditsPerSession };
	for (const field of ['left_today', 'left_in_session'] as const) {
		if (typeof credits[field] !== 'number' || (field === 'left_today' && !last)) continue;
		const debited = debitOf(inCap[field]);
		claim(
			field,
			Number(credits[field]) + debited - allowance <= maxOf[field],
			`debited ${debited}`,
		);
		const heldField = field === 'left_today' ? 'held_today' : 'held_in_session';
		if (typeof credits[heldField] !== 'number') continue;
		const lost = debitOf(stillLost(inCap[field]));
		claim(heldField, Number(credits[heldField]) >= lost, `answers lost in it debited ${lost}`);
	}
	return found;
}

/** f: the execution ends within what its calls' timeouts and waits allow, and sends nothing after. */
function seamViolations(c: Checked): string[] {
	const late = c.sent.filter((x) => x.run.endsWith('ended'));
	return [
		...(c.seamMs > c.seamBoundMs
			? [`f-seam: the execution took ${c.seamMs} ms of the seam's time, past ${c.seamBoundMs}`]
			: []),
		...late.map((x) => `f-late: ${x.ids.join(', ')} sent after its execution ended (${x.run})`),
	];
}

/**
 * h: without Continue On Fail, a canvas run whose answer failed an item (an unknown id, a person not
 * found) sends no call under a key new to the run after it, but the ask again for ids that answer
 * left out, until that key is sent again (a later try).
 */
function boundViolations({ s }: Checked, o: NodeRunOutcome, inRun: Sent[]): string[] {
	if (s.continueOnFail || o.tool) return [];
	const readable = (x: Sent) => x.effect !== 'notJson' && x.effect !== 'badSchema';
	const read = (x: Sent) => x.delivered && readable(x);
	// A 404 after its key got no usable answer (lost, a 5xx, a body it cannot read) says nothing of
	// that earlier attempt, which may have been carried out: the node sends the call again.
	const unusable = (y: Sent) => isLost(y) || y.status >= 500 || !readable(y);
	const noMatch = (x: Sent, i: number) =>
		x.status === 404 &&
		readable(x) &&
		!inRun.slice(0, i).some((y) => y.key === x.key && unusable(y));
	const unknown = (x: Sent) =>
		read(x) && !x.leftOut && x.ids.some((id) => id.startsWith('ct_') && !isKnown(id));
	const found = new Set<string>();
	inRun.forEach((x, failed) => {
		if (!noMatch(x, failed) && !unknown(x)) return;
		// Until its key goes again (Retry On Fail's next try): what that answer says is then news.
		const again = inRun.findIndex((y, j) => j > failed && y.key === x.key);
		const keys = new Set(inRun.slice(0, failed + 1).map((y) => y.key));
		const leftOut = x.ids.filter((id) => !x.answered.includes(id));
		for (const y of inRun.slice(failed + 1, again < 0 ? undefined : again))
			if (!keys.has(y.key) && !y.ids.every((id) => leftOut.includes(id)))
				found.add(
					`h-bound: ${o.tag} sent ${y.ids.join(', ')} under a new key after an item failed`,
				);
	});
	return [...found];
}

export function violationsOf(c: Checked): string[] {
	return [
		...capViolations(c),
		...c.outcomes.flatMap((o) => {
			const inRun = c.sent.filter((x) => x.run === o.tag);
			return [
				...moneyViolations(o, inRun),
				...outputViolations(o, inRun),
				...itemViolations(o),
				...toolFieldViolations(c, o),
				...boundViolations(c, o, inRun),
			];
		}),
		...sendViolations(c),
		...seamViolations(c),
	];
}
