/** The invariants of issue 37 (a–f), checked on one scenario's node runs against what the fake API did. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { moneyOf, type MoneyStatement } from '../support/money.cjs';
import { LEVELS } from './accounts';
import type { Sent } from './fakeApi';
import type { NodeRunOutcome } from './driver';
import { maxCreditsOf, type Scenario } from './scenario';

export interface Checked {
	s: Scenario;
	sent: Sent[];
	outcomes: NodeRunOutcome[];
	/** The seam's time the execution took, and the most its calls' timeouts and waits allow. */
	seamMs: number;
	seamBoundMs: number;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const debitOf = (sent: Sent[]) => sum(sent.map((x) => x.debited));
/** No answer came back (lost on the way, or timed out) to a call that may have charged. */
const isLost = (x: Sent) => x.status === 0 && !x.repeat;
/** A definite answer: a 2xx, or a refusal that is not "try again" (a 429 or a 5xx is not). */
const settles = (x: Sent) => x.status >= 200 && x.status < 500 && x.status !== 429;
/** Lost, and its key got no definite answer later in the run (a replay that answered settles it). */
const stillLost = (inRun: Sent[]) =>
	inRun.filter(
		(x, i) =>
			isLost(x) &&
			!inRun
				.slice(i + 1)
				.some((later) => later.key === x.key && later.apiKey === x.apiKey && settles(later)),
	);
/** The one call an overcharging API may take past a cap. */
const allowanceOf = (sent: Sent[]) =>
	Math.max(0, ...sent.filter((x) => x.fault === 'overcharge').map((x) => x.debited));

function capViolations({ s, sent, outcomes }: Checked): string[] {
	const found: string[] = [];
	const check = (what: string, max: number, within: Sent[]) => {
		const debited = debitOf(within);
		if (max > 0 || what === 'Max Credits')
			if (debited - allowanceOf(within) > max)
				found.push(`a-cap: ${what} ${max}, the API debited ${debited}`);
	};
	const tagsOf = (node: string) =>
		new Set(outcomes.filter((o) => o.node === node).map((o) => o.tag));
	if (s.where.kind === 'canvas')
		for (const o of outcomes)
			check(
				`Max Credits (${o.tag})`,
				maxCreditsOf(s),
				sent.filter((x) => x.run === o.tag),
			);
	else check('Max Credits', maxCreditsOf(s), sent);
	if (s.version === 1) return found;
	for (const node of new Set(outcomes.map((o) => o.node))) {
		const tags = tagsOf(node);
		check(
			`Max Credits per Day (${node})`,
			s.maxCreditsPerDay,
			sent.filter((x) => tags.has(x.run)),
		);
	}
	if (s.where.kind === 'tool' && s.where.mcp)
		check('Max Credits per MCP Session', s.maxCreditsPerSession, sent);
	return found;
}

/** An item's answers: an MCP client gets the tool's items inside `response`. */
const answersOf = (json: IDataObject): IDataObject[] =>
	Array.isArray(json.response) ? (json.response as IDataObject[]) : [json];

function textsOf(o: NodeRunOutcome): string[] {
	const errorText = (json: { message?: unknown; error?: unknown; description?: unknown }) =>
		[json.message ?? json.error, json.description].filter(Boolean).join(' ');
	const items = o.items
		.flatMap(({ json }) => answersOf(json))
		.filter((json) => json.error !== undefined)
		.map((json) => errorText(json));
	return [...o.hints, ...(o.error ? [errorText(o.error)] : []), ...items];
}

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
function statementsOf(o: NodeRunOutcome): Array<MoneyStatement & { source: string }> {
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

/** The error texts of a run, each with the input item it is of (when known). */
function errorTextsOf(o: NodeRunOutcome): Array<{ text: string; item?: number }> {
	const errorText = (json: { message?: unknown; error?: unknown; description?: unknown }) =>
		[json.message ?? json.error, json.description].filter(Boolean).join(' ');
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
			.filter((json) => json.error !== undefined)
			.map((json) => ({
				text: errorText(json),
				item: json === item.json ? itemOf(item) : undefined,
			})),
	);
	return [...ended, ...items];
}

/**
 * "Not charged" is said only of what the API did not charge: never of a contact it debited in the
 * run, nor of one (or, naming none, of an item's) whose call's answer is still lost.
 */
function notChargedViolations(o: NodeRunOutcome, inRun: Sent[]): string[] {
	const lost = new Set(stillLost(inRun).flatMap((x) => x.ids));
	const debited = new Set(inRun.filter((x) => x.debited > 0).flatMap((x) => x.charged));
	return errorTextsOf(o)
		.filter(({ text }) => moneyOf(text).notCharged)
		.filter(({ text, item }) => {
			const named = text.match(NAMES) ?? [];
			if (named.length) return named.some((name) => debited.has(name) || lost.has(name));
			const whose = item === undefined ? [...lost] : (o.wanted[item] ?? []);
			return whose.some((name) => lost.has(name));
		})
		.map(
			({ text }) =>
				`c-not-charged: ${o.tag} says "not charged" of a contact charged or lost: "${text}"`,
		);
}

function moneyViolations(c: Checked, o: NodeRunOutcome): string[] {
	const found: string[] = [];
	const inRun = c.sent.filter((x) => x.run === o.tag);
	const debited = debitOf(inRun);
	const statements = statementsOf(o);
	for (const { charged, heldBack, source } of statements)
		if (charged !== undefined && !(charged <= debited && debited <= charged + heldBack))
			found.push(
				`${charged > debited ? 'c-over' : 'c-under'}: ${o.tag} says ${charged} charged, ${heldBack} held back; the API debited ${debited}: "${source}"`,
			);
	const lost = stillLost(inRun);
	if (
		o.error &&
		(debited > 0 || lost.length > 0) &&
		moneyOf(textsOf({ ...o, hints: [], items: [] })[0]).charged === undefined
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
	const missing = [...new Set(inRun.flatMap((x) => (x.debited > 0 ? x.charged : [])))].filter(
		(id) => !recordIds(o.items.map((i) => i.json)).has(id),
	);
	const named = statements.some((t) => (t.charged ?? 0) > 0 || t.heldBack > 0);
	if (missing.length && !named)
		found.push(
			`b-output: ${o.tag}: the API charged for ${missing.join(', ')}, not in the output, and nothing names the charge`,
		);
	return found;
}

/** d: no contact its run already has is sent under a new key; a key goes again with its body. */
function sendViolations({ sent }: Checked): string[] {
	const found: string[] = [];
	const keys = new Set<string>();
	const had = new Map<string, number>();
	for (const x of sent) {
		const rank = LEVELS.indexOf(x.level) + 1;
		const fresh = !keys.has(`${x.apiKey}|${x.key}`);
		keys.add(`${x.apiKey}|${x.key}`);
		const again = x.ids.filter((id) => (had.get(`${x.run}|${x.apiKey}|${id}`) ?? 0) >= rank);
		if (fresh && again.length)
			found.push(`d-new-key: ${x.run} sent ${again.join(', ')} again under a new key`);
		if (x.status === 409) found.push(`d-conflict: ${x.run} sent a key again with another body`);
		for (const id of x.answered)
			had.set(
				`${x.run}|${x.apiKey}|${id}`,
				Math.max(rank, had.get(`${x.run}|${x.apiKey}|${id}`) ?? 0),
			);
	}
	return found;
}

function itemOf(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number' ? paired : paired?.item;
}

/** e: an error item of a contact or person names its own item. */
function itemViolations(o: NodeRunOutcome): string[] {
	if (o.tool) return [];
	return o.items.flatMap((item) => {
		const { json } = item;
		if (json.error === undefined) return [];
		const own = itemOf(item);
		const named = /\[item (\d+)\]/.exec(`${String(json.error)} ${String(json.description ?? '')}`);
		const whose = (json.id ?? json.email) as string | undefined;
		const wrongItem = named !== null && Number(named[1]) !== own;
		const notWanted = whose !== undefined && own !== undefined && !o.wanted[own]?.includes(whose);
		return wrongItem || notWanted
			? [`e-item: ${o.tag} error item ${own} (${whose}) says "${String(json.error)}"`]
			: [];
	});
}

export function violationsOf(c: Checked): string[] {
	const seam =
		c.seamMs > c.seamBoundMs
			? [`f-seam: the execution took ${c.seamMs} ms of the seam's time, past ${c.seamBoundMs}`]
			: [];
	return [
		...capViolations(c),
		...c.outcomes.flatMap((o) => [...moneyViolations(c, o), ...itemViolations(o)]),
		...sendViolations(c),
		...seam,
	];
}
