/** What a set of scenarios covers: every fault and every dimension, counted (fc.statistics-like). */
import { KNOWN } from './accounts';
import { FAULTS } from './faults';
import type { Scenario } from './scenario';

/** The labels every scenario set must show at least once. */
export const EXPECTED_LABELS = [
	...FAULTS.map((fault) => `fault: ${fault}`),
	'operation: unlock',
	'operation: enrich',
	'version: 2.1',
	'version: 1',
	'level: basic',
	'level: premium',
	'Max Credits: 0',
	'Max Credits: 1 or more',
	'When Max Credits Is Reached: stop',
	'When Max Credits Is Reached: whatFits',
	'Skip Already Unlocked',
	'Continue On Fail',
	'Retry On Fail: 2 tries',
	'Retry On Fail: 3 tries',
	'Max Credits per Day',
	'Max Credits per MCP Session (MCP)',
	'account holds contacts before',
	'items say held what the account does not hold',
	'canvas',
	"canvas: a loop's second run",
	'canvas: unlock of more than one call',
	'canvas: an item repeats a contact',
	'canvas: an item says held (basic)',
	'canvas: an item says held (premium)',
	'canvas: an unknown contact',
	'tool: 1 tool node',
	'tool: 2 tool nodes',
	'tool: 3 tool nodes',
	'tool: 2 credentials',
	'tool: MCP',
];

export function labelsOf(s: Scenario): string[] {
	const { where } = s;
	const labels = [
		...new Set(s.faults.map((fault) => `fault: ${fault}`)),
		`operation: ${s.operation}`,
		`version: ${s.version}`,
		`level: ${s.level}`,
		s.maxCredits === 0 ? 'Max Credits: 0' : 'Max Credits: 1 or more',
		`When Max Credits Is Reached: ${s.whenMaxCreditsReached}`,
		s.skipAlreadyUnlocked && 'Skip Already Unlocked',
		s.continueOnFail && 'Continue On Fail',
		s.tries > 1 && `Retry On Fail: ${s.tries} tries`,
		s.version !== 1 && s.maxCreditsPerDay > 0 && 'Max Credits per Day',
		s.heldBefore.length > 0 && 'account holds contacts before',
		s.staleFlags &&
			where.kind === 'canvas' &&
			where.items.some((item) => item.held) &&
			'items say held what the account does not hold',
	];
	if (where.kind === 'canvas') {
		const ns = where.items.map((item) => item.n);
		labels.push(
			'canvas',
			where.runs === 2 && "canvas: a loop's second run",
			where.bulk && s.operation === 'unlock' && 'canvas: unlock of more than one call',
			new Set(ns).size < ns.length && 'canvas: an item repeats a contact',
			...where.items.map((item) =>
				item.held ? `canvas: an item says held (${item.held})` : false,
			),
			ns.some((n) => n >= KNOWN) && 'canvas: an unknown contact',
		);
	} else {
		labels.push(
			`tool: ${where.credentials.length} tool node${where.credentials.length > 1 ? 's' : ''}`,
			new Set(where.credentials).size > 1 && 'tool: 2 credentials',
			where.mcp && 'tool: MCP',
			where.mcp &&
				s.version !== 1 &&
				s.maxCreditsPerSession > 0 &&
				'Max Credits per MCP Session (MCP)',
		);
	}
	return [...new Set(labels.filter((label): label is string => typeof label === 'string'))];
}

/** How many scenarios show each label, in percent, as a table. */
export function coverageTable(counts: Map<string, number>, total: number): string {
	return [...counts.entries()]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(
			([label, count]) => `${label.padEnd(48)} ${((100 * count) / total).toFixed(1).padStart(5)}%`,
		)
		.join('\n');
}
