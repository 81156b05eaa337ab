/** The generated scenarios: what the node is asked, how it is set, where it runs, which faults it meets. */
import fc from 'fast-check';

import { BULK, KNOWN, LEVELS, type Level } from './accounts';
import { FAULTS, type Fault } from './faults';

/** One input item: a contact (or person) by number; KNOWN and above are unknown to the API. */
export interface ItemSpec {
	n: number;
	/** The item says it is already unlocked, at this level (a search preview says basic). */
	held?: Level;
}

/** One tool call of an agent: which tool node, and the contacts (or person) the model gives. */
export interface ToolCallSpec {
	tool: number;
	ns: number[];
}

/** Every version of the node: each has its own options and answers. */
export const VERSIONS = [1, 2, 2.1, 2.2] as const;
export type Version = (typeof VERSIONS)[number];

export interface Scenario {
	operation: 'unlock' | 'enrich';
	version: Version;
	level: Level;
	maxCredits: number;
	whenMaxCreditsReached: 'stop' | 'whatFits';
	skipAlreadyUnlocked: boolean;
	continueOnFail: boolean;
	/** n8n's Retry On Fail tries (1: off). */
	tries: number;
	maxCreditsPerDay: number;
	maxCreditsPerSession: number;
	/** Contacts the account holds before the execution, at basic. */
	heldBefore: number[];
	/** Items may say a contact is held that the account does not hold (else the account holds it). */
	staleFlags: boolean;
	/** The API's answers, in request order; after the last, none fails. */
	faults: Fault[];
	/** Executions of the one workflow, one after another (caps over time span them); 1 unless given. */
	executions?: number;
	/** After carrying out this request (0 first) the clock moves past the next midnight (UTC). */
	midnightAfter?: number;
	/** Stop is pressed while this request (0 first) is on its way. */
	stopAt?: number;
	/**
	 * On the canvas: the items and how many runs of the loop. As tools in an agent's execution: the
	 * tool nodes' credentials (and Max Credits, added to the scenario's) and the calls. Over MCP
	 * (`mcp`): each call is its own execution without an execution id, in no session (0), one (1),
	 * or two taken in turn (2).
	 */
	where:
		| { kind: 'canvas'; items: ItemSpec[]; runs: 1 | 2; bulk: boolean }
		| {
				kind: 'tool';
				credentials: number[];
				calls: ToolCallSpec[];
				mcp: boolean;
				extraMaxCredits?: number[];
				sessions?: 0 | 1 | 2;
		  };
}

/** Mostly a few contacts, so that items, calls and tools ask for the same ones. */
const number = fc.oneof(
	{ arbitrary: fc.integer({ min: 0, max: 3 }), weight: 3 },
	{ arbitrary: fc.integer({ min: 0, max: KNOWN + 1 }), weight: 1 },
);
const level = fc.constantFrom<Level>(...LEVELS);

const item: fc.Arbitrary<ItemSpec> = fc.record({ n: number, held: level }, { requiredKeys: ['n'] });

const canvas = fc.record({
	kind: fc.constant('canvas' as const),
	items: fc.array(item, { minLength: 1, maxLength: 6 }),
	runs: fc.constantFrom<1 | 2>(1, 2),
	bulk: fc.oneof(
		{ arbitrary: fc.constant(false), weight: 4 },
		{ arbitrary: fc.constant(true), weight: 1 },
	),
});

/** Unlock of the BULK contacts too (more than one call): its Max Credits is raised by as many. */
export const bulkOf = (s: Scenario) =>
	s.where.kind === 'canvas' && s.where.bulk && s.operation === 'unlock' ? BULK.count : 0;
export const maxCreditsOf = (s: Scenario) => s.maxCredits + bulkOf(s);

/** 1 to 3 tool nodes on 1 or 2 credentials, each with its Max Credits; MCP has one tool node. */
const tool = fc
	.record({
		credentials: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 3 }),
		mcp: fc.boolean(),
	})
	.chain(({ credentials, mcp }) => {
		const tools = mcp ? [credentials[0]] : credentials;
		const call = fc.record({
			tool: fc.integer({ min: 0, max: tools.length - 1 }),
			ns: fc.array(number, { minLength: 1, maxLength: 3 }),
		});
		return fc.record({
			kind: fc.constant('tool' as const),
			credentials: fc.constant(tools),
			calls: fc.array(call, { minLength: 1, maxLength: 3 }),
			mcp: fc.constant(mcp),
			extraMaxCredits: fc.array(fc.integer({ min: 0, max: 4 }), {
				minLength: tools.length,
				maxLength: tools.length,
			}),
			sessions: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
		});
	});

/** Mostly calls that go through: a fault in about two requests of five. */
const fault: fc.Arbitrary<Fault> = fc.oneof(
	{ arbitrary: fc.constant<Fault>('none'), weight: 8 },
	{ arbitrary: fc.constantFrom<Fault>(...FAULTS.filter((f) => f !== 'none')), weight: 6 },
	// Two that take effect only at the right request: a replay, and the next connection.
	{ arbitrary: fc.constantFrom<Fault>('replayWithout', 'refused'), weight: 1 },
);

const cap = fc.oneof(
	{ arbitrary: fc.constant(0), weight: 3 },
	{ arbitrary: fc.integer({ min: 1, max: 12 }), weight: 2 },
);

/** `value` in `weight` of `weight + without` draws, else undefined. */
const sometimes = <T>(value: fc.Arbitrary<T>, weight: number, without: number) =>
	fc.oneof({ arbitrary: fc.constant(undefined), weight: without }, { arbitrary: value, weight });

export const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
	operation: fc.constantFrom<Scenario['operation']>('unlock', 'enrich'),
	version: fc.constantFrom<Version>(...VERSIONS),
	level,
	maxCredits: fc.integer({ min: 0, max: 12 }),
	whenMaxCreditsReached: fc.constantFrom<Scenario['whenMaxCreditsReached']>('stop', 'whatFits'),
	skipAlreadyUnlocked: fc.boolean(),
	continueOnFail: fc.boolean(),
	tries: fc.constantFrom(1, 1, 2, 3),
	maxCreditsPerDay: cap,
	maxCreditsPerSession: cap,
	heldBefore: fc.uniqueArray(fc.integer({ min: 0, max: KNOWN - 1 }), { maxLength: 3 }),
	staleFlags: fc.boolean(),
	faults: fc.array(fault, { maxLength: 8 }),
	executions: fc.constantFrom(1, 1, 1, 2),
	midnightAfter: sometimes(fc.integer({ min: 0, max: 5 }), 1, 4),
	stopAt: sometimes(fc.integer({ min: 0, max: 2 }), 1, 8),
	where: fc.oneof({ arbitrary: canvas, weight: 1 }, { arbitrary: tool, weight: 1 }),
});

/** A scenario without faults, options or retries: the warm-up, and what tests vary from. */
export const PLAIN: Omit<Scenario, 'where'> = {
	operation: 'unlock',
	version: 2.1,
	level: 'basic',
	maxCredits: 10,
	whenMaxCreditsReached: 'stop',
	skipAlreadyUnlocked: false,
	continueOnFail: false,
	tries: 1,
	maxCreditsPerDay: 0,
	maxCreditsPerSession: 0,
	heldBefore: [],
	staleFlags: false,
	faults: [],
};
