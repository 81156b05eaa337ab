/**
 * Fault injection: rules that make matching API requests fail (error), vanish (drop), wait
 * (slow) or answer broken JSON (malformed), either instead of processing (phase "before") or
 * after processing, losing the real answer (phase "after"). A "rewrite" (phase "after" only)
 * answers what the contract rules out: the real answer with fields set (`set`, e.g. a negative
 * `credits_charged`) and the entry at `omit_entry` left out of its `contacts` list. The real
 * answer stays the one an idempotent replay gets.
 */
import { z } from 'zod';
import { seededRandom } from './random.cjs';

const FAULT_KINDS = ['error', 'drop', 'slow', 'malformed', 'rewrite'] as const;
const FAULT_PHASES = ['before', 'after'] as const;

const faultRuleSchema = z
	.object({
		route: z
			.string()
			.min(1)
			.regex(
				/^(\*|((GET|POST|PUT|PATCH|DELETE) )?\/\S*)$/,
				'must be "*", "<METHOD> <path>" or a path prefix ending in *',
			),
		kind: z.enum(FAULT_KINDS),
		status: z.union([z.literal(500), z.literal(502), z.literal(503)]).optional(),
		delay_ms: z.number().int().min(0).max(600_000).optional(),
		count: z.number().int().min(1).optional(),
		rate: z.number().min(0).max(1).optional(),
		phase: z.enum(FAULT_PHASES).optional(),
		/** rewrite: top-level fields of the answer replaced by these values. */
		set: z.record(z.unknown()).optional(),
		/** rewrite: the index of the entry of the answer's `contacts` left out. */
		omit_entry: z.number().int().min(0).optional(),
	})
	.strict()
	.refine(
		(rule) => rule.kind !== 'rewrite' || rule.phase === 'after',
		'a rewrite rule needs phase "after"',
	);
export type FaultRule = z.infer<typeof faultRuleSchema>;

export const faultRulesSchema = z.object({ rules: z.array(faultRuleSchema).max(100) });

interface ActiveRule {
	rule: FaultRule;
	remaining: number | null;
}

/** The answer a rewrite rule gives instead of `body` (a JSON object; anything else is left as it is). */
export function rewritten(rule: FaultRule, body: unknown): unknown {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
	const answer: Record<string, unknown> = {
		...(body as Record<string, unknown>),
		...(rule.set ?? {}),
	};
	if (rule.omit_entry !== undefined && Array.isArray(answer.contacts)) {
		answer.contacts = answer.contacts.filter((_, index) => index !== rule.omit_entry);
	}
	return answer;
}

function routeMatches(route: string, method: string, path: string): boolean {
	if (route === '*') return true;
	let pattern = route;
	const space = route.indexOf(' ');
	if (space > 0) {
		if (route.slice(0, space) !== method) return false;
		pattern = route.slice(space + 1);
	}
	return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}

export class Faults {
	private rules: ActiveRule[] = [];
	private random: () => number;

	constructor(private readonly seed: number) {
		this.random = seededRandom(seed ^ 0xfa017);
	}

	set(rules: FaultRule[]): void {
		this.rules = rules.map((rule) => ({ rule, remaining: rule.count ?? null }));
		this.random = seededRandom(this.seed ^ 0xfa017);
	}

	clear(): void {
		this.set([]);
	}

	list(): FaultRule[] {
		return this.rules.filter((active) => active.remaining !== 0).map((active) => active.rule);
	}

	/** The first rule of a phase that fires for a request (firing uses up one of its count). */
	take(phase: 'before' | 'after', method: string, path: string): FaultRule | null {
		for (const active of this.rules) {
			const { rule } = active;
			if ((rule.phase ?? 'before') !== phase || active.remaining === 0) continue;
			if (!routeMatches(rule.route, method, path)) continue;
			if (rule.rate !== undefined && this.random() >= rule.rate) continue;
			if (active.remaining !== null) active.remaining--;
			return rule;
		}
		return null;
	}
}
