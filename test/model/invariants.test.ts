/**
 * Each invariant of the model (invariants.ts) fed an outcome that breaks it, beside one that keeps
 * it: the model's run shows the node keeps them; these show that each can fail.
 */
import type { IDataObject } from 'n8n-workflow';

import type { NodeRunOutcome, RunOf } from './driver';
import type { Sent } from './fakeApi';
import { violationsOf, type Checked } from './invariants';
import { PLAIN, type Scenario } from './scenario';

const CANVAS: Scenario = {
	...PLAIN,
	version: 2.2,
	maxCredits: 2,
	continueOnFail: true,
	where: { kind: 'canvas', items: [{ n: 0 }, { n: 1 }], runs: 1, bulk: false },
};
const MCP: Scenario = {
	...CANVAS,
	where: { kind: 'tool', credentials: [0], calls: [{ tool: 0, ns: [0] }], mcp: true, sessions: 1 },
};
const NOON = Date.UTC(2031, 2, 15, 12);

/** A request the fake carried out and answered, charging `ids` a credit each. */
function sent(run: string, ids: string[], more: Partial<Sent> = {}): Sent {
	return {
		run,
		apiKey: 'key-a',
		key: `key-${ids.join('-')}`,
		ids,
		level: 'basic',
		at: NOON,
		after: NOON,
		fault: 'none',
		effect: 'none',
		replayed: false,
		repeat: false,
		debited: ids.length,
		charged: ids,
		worstCase: ids.length,
		free: false,
		leftOut: false,
		stopped: false,
		delivered: true,
		answered: ids,
		status: 200,
		...more,
	};
}

const run = (more: Partial<RunOf> = {}): RunOf => ({
	node: 'wf-Contact Data',
	execution: '0.',
	maxCredits: 2,
	tool: false,
	from: 0,
	...more,
});

const record = (id: string, item: number) => ({
	json: { id, credits_charged_in_run: 0 } as IDataObject,
	pairedItem: { item },
});

/** A canvas run that outputs `ids` as records and says it charged `charged`. */
function outcome(tag: string, more: Partial<NodeRunOutcome> = {}, charged = 2): NodeRunOutcome {
	return {
		tag,
		apiKey: 'key-a',
		wanted: [['ct_0'], ['ct_1']],
		items: [record('ct_0', 0), record('ct_1', 1)].map((item) => ({
			...item,
			json: { ...item.json, credits_charged_in_run: charged },
		})),
		hints: [`Unlocked 2 unique contacts (basic): ${charged} credits charged of a 2 budget.`],
		tool: false,
		node: 'wf-Contact Data',
		maxCredits: 2,
		...more,
	};
}

function checked(more: Partial<Checked>): Checked {
	return {
		s: CANVAS,
		sent: [sent('0.r0', ['ct_0', 'ct_1'])],
		outcomes: [outcome('0.r0')],
		runs: { '0.r0': run() },
		seamMs: 0,
		seamBoundMs: 1000,
		...more,
	};
}

const codesOf = (c: Checked) => [...new Set(violationsOf(c).map((v) => v.split(':')[0]))];

it('an outcome told true breaks no invariant', () => {
	expect(violationsOf(checked({}))).toEqual([]);
});

describe('a: no cap passed', () => {
	it('Max Credits on the canvas, also at 0', () => {
		const c = checked({ runs: { '0.r0': run({ maxCredits: 0 }) } });
		expect(violationsOf(c)).toContain('a-cap: Max Credits (0.r0) 0, the API debited 2');
	});

	it('tool calls of an execution share it: a later call within its own Max Credits', () => {
		const tool = { tool: true, maxCredits: 3 };
		const sends = [sent('0.t0', ['ct_0', 'ct_1']), sent('0.t1', ['ct_2', 'ct_3'])];
		const runs = { '0.t0': run(tool), '0.t1': run({ ...tool, from: 1 }) };
		expect(codesOf(checked({ sent: sends, outcomes: [], runs }))).toEqual(['a-cap']);
		const mcp = { '0.t0': run(tool), '0.t1': run({ ...tool, execution: '0.t1', from: 1 }) };
		expect(codesOf(checked({ sent: sends, outcomes: [], runs: mcp }))).toEqual([]);
	});

	it('per day, counting each debit in the UTC day it was sent; per MCP session', () => {
		const s = { ...CANVAS, maxCreditsPerDay: 3, maxCreditsPerSession: 3 };
		const runs = {
			'0.r0': run({ maxCredits: 9 }),
			'1.r0': run({ maxCredits: 9, execution: '1.' }),
		};
		const days = (later: number) => [
			sent('0.r0', ['ct_0', 'ct_1']),
			sent('1.r0', ['ct_2', 'ct_3'], { at: NOON + later }),
		];
		expect(codesOf(checked({ s, sent: days(0), outcomes: [], runs }))).toEqual(['a-cap']);
		expect(codesOf(checked({ s, sent: days(86_400_000), outcomes: [], runs }))).toEqual([]);
		const sessions = {
			'0.r0': run({ maxCredits: 9, session: 'x' }),
			'1.r0': run({ maxCredits: 9, session: 'x' }),
		};
		const c = checked({
			s: { ...s, maxCreditsPerDay: 0 },
			sent: days(86_400_000),
			outcomes: [],
			runs: sessions,
		});
		expect(violationsOf(c)).toEqual([
			'a-cap: Max Credits per MCP Session (x) 3, the API debited 4',
		]);
	});
});

describe('b: what was charged is output or named', () => {
	it('a charged contact missing from the output, where nothing tells the charge', () => {
		const first = { json: { id: 'ct_0' }, pairedItem: { item: 0 } };
		const missing = outcome('0.r0', { items: [first], hints: [] });
		expect(codesOf(checked({ outcomes: [missing] }))).toEqual(['b-output']);
		const error = { json: { id: 'ct_1', error: 'No answer for ct_1' }, pairedItem: { item: 1 } };
		const named = { ...missing, items: [first, error] };
		expect(codesOf(checked({ outcomes: [named] }))).toEqual([]);
		const told = { ...missing, hints: ['Unlocked 1 unique contact: 2 credits charged'] };
		expect(codesOf(checked({ outcomes: [told] }))).toEqual([]);
	});
});

describe('c: money told true', () => {
	it('a charge above what the API debited, or below it without a hold-back', () => {
		expect(codesOf(checked({ outcomes: [outcome('0.r0', {}, 3)] }))).toContain('c-over');
		expect(codesOf(checked({ outcomes: [outcome('0.r0', {}, 1)] }))).toContain('c-under');
	});

	it('an error that ends a run says what the run charged', () => {
		const ended = outcome('0.r0', { items: [], hints: [], error: { message: 'The API failed' } });
		expect(codesOf(checked({ outcomes: [ended] }))).toContain('c-hidden');
		const told = { ...ended, error: { message: 'The API failed. This run: 2 credits charged' } };
		expect(codesOf(checked({ outcomes: [told] }))).not.toContain('c-hidden');
	});

	it('"not charged" of a contact the API debited (an Enrich person by email too)', () => {
		const said = (text: string) =>
			outcome('0.r0', {
				items: [...outcome('0.r0').items, { json: { error: text }, pairedItem: { item: 0 } }],
			});
		expect(codesOf(checked({ outcomes: [said('ct_0 was not charged')] }))).toContain(
			'c-not-charged',
		);
		const enrich = sent('0.r0', ['p0@people.example'], { charged: ['ct_0'] });
		const byEmail = checked({
			sent: [enrich],
			outcomes: [said('p0@people.example was not charged')],
		});
		expect(codesOf(byEmail)).toContain('c-not-charged');
	});

	it('"asked twice" of a contact sent once', () => {
		const twice = outcome('0.r0', {
			hints: ['Unlocked 2 (basic): 2 credits charged. ct_1 asked twice'],
		});
		expect(codesOf(checked({ outcomes: [twice] }))).toEqual(['c-twice']);
	});
});

describe('d: a contact the execution has is not sent under a new key', () => {
	it('across the runs of one execution, not across executions', () => {
		const again = [sent('0.r0', ['ct_0']), sent('0.r1', ['ct_0'], { key: 'other', debited: 0 })];
		const runs = { '0.r0': run(), '0.r1': run({ from: 1 }) };
		expect(codesOf(checked({ sent: again, outcomes: [], runs }))).toEqual(['d-new-key']);
		const apart = { '0.r0': run(), '0.r1': run({ execution: '1.', from: 1 }) };
		expect(codesOf(checked({ sent: again, outcomes: [], runs: apart }))).toEqual([]);
	});

	it('a key sent again with another body', () => {
		const conflict = [
			sent('0.r0', ['ct_0', 'ct_1']),
			sent('0.r0', ['ct_0'], { status: 409, debited: 0, answered: [] }),
		];
		expect(codesOf(checked({ sent: conflict }))).toContain('d-conflict');
	});
});

describe('e: an error names its own item', () => {
	it('on the canvas and in a tool answer', () => {
		const wrong = {
			json: { id: 'ct_1', error: 'No contact ct_1 [item 0]' },
			pairedItem: { item: 1 },
		};
		expect(
			codesOf(checked({ outcomes: [outcome('0.r0', { items: [record('ct_0', 0), wrong] })] })),
		).toContain('e-item');
		const notDone = { contacts: [], not_done: [{ id: 'ct_9', error: 'No contact ct_9' }] };
		const tool = outcome('0.t0', {
			tool: true,
			wanted: [['ct_0']],
			items: [{ json: notDone, pairedItem: [{ item: 0 }] }],
			hints: [],
		});
		expect(
			codesOf(checked({ sent: [], outcomes: [tool], runs: { '0.t0': run({ tool: true }) } })),
		).toContain('e-item');
	});
});

describe('g: the tool answer’s money fields', () => {
	const answer = (credits: IDataObject) =>
		outcome('0.t0', {
			tool: true,
			wanted: [['ct_0']],
			hints: [],
			items: [
				{
					json: { response: [{ contacts: [{ id: 'ct_0' }], credits }] },
					pairedItem: [{ item: 0 }],
				},
			],
		});
	const base = { spent_by_this_call: 1, spent_in_run: 1, max_credits: 2, left: 1 };
	const tool = (credits: IDataObject, more: Partial<Checked> = {}) =>
		checked({
			s: { ...MCP, maxCreditsPerDay: 2, maxCreditsPerSession: 2 },
			sent: [sent('0.t0', ['ct_0'])],
			outcomes: [answer(credits)],
			runs: { '0.t0': run({ tool: true, session: 's' }) },
			...more,
		});

	it('told true', () => {
		expect(
			violationsOf(tool({ ...base, left_today: 1, held_today: 0, left_in_session: 1 })),
		).toEqual([]);
	});

	it('spent_in_run more than the API debited; left more than Max Credits leaves', () => {
		expect(codesOf(tool({ ...base, spent_in_run: 2 }))).toEqual(['g-spent_in_run']);
		expect(codesOf(tool({ ...base, left: 2 }))).toEqual(['g-left']);
	});

	it('left_today and left_in_session more than their cap leaves', () => {
		expect(codesOf(tool({ ...base, left_today: 2 }))).toEqual(['g-left_today']);
		expect(codesOf(tool({ ...base, left_in_session: 2 }))).toEqual(['g-left_in_session']);
	});

	it('held_today and held_in_session less than the answers lost in them debited', () => {
		const lost = { sent: [sent('0.t0', ['ct_0'], { status: 0, delivered: false, answered: [] })] };
		const held = { ...base, spent_by_this_call: 0, spent_in_run: 0, left: 0 };
		expect(codesOf(tool({ ...held, left_today: 0, held_today: 0 }, lost))).toContain(
			'g-held_today',
		);
		expect(codesOf(tool({ ...held, left_in_session: 0, held_in_session: 0 }, lost))).toContain(
			'g-held_in_session',
		);
		expect(codesOf(tool({ ...held, left_today: 0, held_today: 1 }, lost))).not.toContain(
			'g-held_today',
		);
	});
});

describe('f: every call and every wait ends', () => {
	it('within the seam’s bound, and nothing is sent after the execution ended', () => {
		expect(codesOf(checked({ seamMs: 2000 }))).toEqual(['f-seam']);
		const late = [sent('0.r0', ['ct_0', 'ct_1']), sent('0.ended', ['ct_2'], { debited: 0 })];
		expect(codesOf(checked({ sent: late }))).toEqual(['f-late']);
	});
});

describe('h: a run bound to fail sends no new call', () => {
	const bound = { ...CANVAS, continueOnFail: false };
	const unknownFirst = sent('0.r0', ['ct_0', 'ct_9'], { answered: ['ct_0'], debited: 1 });
	const hBound = (s: Scenario, sends: Sent[]) =>
		violationsOf(checked({ s, sent: sends })).filter((v) => v.startsWith('h-bound'));

	it('a new key after an answer with an unknown id, or after a no-match, breaks it', () => {
		expect(hBound(bound, [unknownFirst, sent('0.r0', ['ct_1'])])).toEqual([
			'h-bound: 0.r0 sent ct_1 under a new key after an item failed',
		]);
		const noMatch = sent('0.r0', ['p9@people.example'], { status: 404, delivered: false });
		expect(hBound(bound, [noMatch, sent('0.r0', ['p1@people.example'])])).toHaveLength(1);
	});

	it('keeps it: Continue On Fail, the same key again, or an ask again for ids left out', () => {
		const later = sent('0.r0', ['ct_1']);
		expect(hBound(CANVAS, [unknownFirst, later])).toEqual([]);
		expect(hBound(bound, [unknownFirst, { ...unknownFirst, repeat: true }])).toEqual([]);
		const leftOut = { ...unknownFirst, ids: ['ct_0', 'ct_9', 'ct_1'], leftOut: false };
		const askAgain = sent('0.r0', ['ct_1'], { key: 'ask-again' });
		expect(hBound(bound, [leftOut, askAgain])).toEqual([]);
	});

	it('keeps it: a 404 after its key got no usable answer says nothing of the item yet', () => {
		const lost = sent('0.r0', ['p9@people.example'], { status: 0, delivered: false });
		const noMatch = { ...lost, status: 404 };
		const next = sent('0.r0', ['p1@people.example']);
		expect(hBound(bound, [lost, noMatch, next])).toEqual([]);
		expect(hBound(bound, [{ ...lost, status: 503 }, noMatch, next])).toEqual([]);
		expect(hBound(bound, [{ ...lost, status: 429 }, noMatch, next])).toHaveLength(1);
	});
});
