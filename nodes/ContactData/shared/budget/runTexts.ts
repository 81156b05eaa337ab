/**
 * What a charging run tells the user it spent: Stop Before Spending and what the budget did not
 * reach as refusals, and what the run charged in the error that ends it.
 */
import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { runsAsTool } from '../items/toolCall';
import { restated } from '../client/failures';
import type { asNodeError } from '../items/items';
import { plural, unique } from '../parameters/utilities';
import { knownBudgetOf, type ChargingRun } from './chargingRun';
import type { CreditBudget } from './ledger';

/** Who used what a cap counted before this run, and the wait that gets past it, if any. */
const CAP_WORDS = {
	left_today: ['Earlier runs and calls of this node today', 'wait for the next day (UTC)'],
	left_in_session: ['Earlier calls of this MCP session', ''],
	none: ['Earlier tool calls of this execution', ''],
	retries: ['Earlier tries of this node run (Retry On Fail)', ''],
};

/** "a, b, or c". */
const anyOf = (choices: string[]): string =>
	choices.length < 2
		? choices.join('')
		: `${choices.slice(0, -1).join(', ')}, or ${choices.at(-1)}`;

/**
 * Stop Before Spending: a refusal when the run's worst case may not fit. A model reads only an
 * error's message, so a tool's holds every remedy; on the canvas the message is what happened and
 * the first remedy, and the description the rest.
 */
export function stopBeforeSpending(
	context: IExecuteFunctions,
	run: ChargingRun,
	what: string,
	worstCase: number,
) {
	const { budget, whatFits } = run;
	if (run.policy !== 'stop' || worstCase <= budget.headroom) return undefined;
	const cap = budget.tightest;
	const usedBefore = cap.tally.charged + cap.tally.reserved;
	const [who, wait] = CAP_WORDS[cap.leftField ?? (budget.shared ? 'none' : 'retries')];
	const raise = `raise ${cap.label} to ${worstCase + usedBefore}`;
	const setWhatFits = cap.leftField ? '' : `set When Max Credits Is Reached to ${whatFits}`;
	const fewer = 'ask for fewer contacts';
	const used = usedBefore > 0 ? `${who} already used ${usedBefore} of the ${cap.max}.` : '';
	const passesOn =
		setWhatFits && `${whatFits} spends up to the budget and passes the rest through.`;
	const cost = `could cost up to ${plural(worstCase, 'credit')}`;
	if (runsAsTool(context)) {
		const left = usedBefore > 0 ? ` with ${plural(budget.headroom, 'credit')} left` : '';
		const remedy = anyOf([fewer, wait, raise, setWhatFits].filter(Boolean));
		return refusal(
			context,
			`${cap.label} of ${cap.max} is not enough: ${what} ${cost}${left}. ${nothingSent(budget)} ${capitalized(remedy)}.`,
			// The description adds what the message does not say.
			sentences(used, passesOn),
		);
	}
	const left = usedBefore > 0 ? ` (${budget.headroom} left)` : '';
	const more = budget.run.charged + budget.run.reserved === 0 ? '' : 'more ';
	const others = anyOf([fewer, wait, setWhatFits].filter(Boolean));
	return refusal(
		context,
		`${cap.label} of ${cap.max} is not enough for up to ${plural(worstCase, 'credit')}${left}, so nothing ${more}was sent. ${capitalized(raise)}.`,
		sentences(
			`${capitalized(what)} ${cost}.`,
			more ? `This run's earlier tries: ${moneyText(budget)}.` : 'Nothing was charged.',
			used,
			`You can also ${others}.`,
			passesOn,
		),
	);
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const sentences = (...texts: string[]) => texts.filter(Boolean).join(' ');

/** Before a try sends anything: what the run's earlier tries (Retry On Fail) charged, if any. */
function nothingSent(budget: CreditBudget): string {
	if (budget.run.charged + budget.run.reserved === 0)
		return 'Nothing was sent and nothing was charged.';
	return `Nothing more was sent. This run's earlier tries: ${moneyText(budget)}.`;
}

/** What the run charged (all its tries), holds back for answers it could not read, and why. */
const moneyText = (budget: CreditBudget): string =>
	`${plural(budget.run.charged, 'credit')} charged${heldBackText(budget)}${impossibleText(budget)}`;

/** What the budget did not reach, as an error under Stop Before Spending. */
export function budgetReached(
	context: IExecuteFunctions,
	run: ChargingRun,
	notSent: number,
	unit: string,
) {
	if (run.policy !== 'stop' || notSent === 0) return undefined;
	const { label, max } = run.budget.tightest;
	const notSentText = `${plural(notSent, unit)} not sent`;
	const free = 'contacts already unlocked come back free';
	if (runsAsTool(context))
		return refusal(
			context,
			`${label} of ${max} reached: ${moneyText(run.budget)}; ${notSentText}. Raise ${label} and run again: ${free}.`,
		);
	const charged = plural(run.budget.run.charged, 'credit');
	return refusal(
		context,
		`${label} of ${max} reached: ${charged} charged; ${notSentText}. Raise ${label} and run again.`,
		`This run: ${moneyText(run.budget)}. ${capitalized(free)}.`,
	);
}

/** A refusal of the whole run: thrown without continueOnFail, else each item's error. */
function refusal(context: IExecuteFunctions, message: string, description = '') {
	const error = new NodeOperationError(context.getNode(), message, {
		description: description || undefined,
	});
	if (!context.continueOnFail()) throw error;
	return error;
}

/** Errors that say already what their run charged. */
const told = new WeakSet<Error>();

/** The error that ends a run says what the run charged, unless it already does (a refusal). */
export function withMoney(
	context: IExecuteFunctions,
	failure: ReturnType<typeof asNodeError>,
	itemIndex: number | undefined,
	budget: CreditBudget,
) {
	const { charged, reserved } = budget.run;
	// Nothing to tell: its own words say not charged.
	if (told.has(failure) || charged + reserved === 0) return failure;
	const free = charged > 0 ? '; run it again and what it charged for comes back free' : '';
	// On the canvas the message stays short: the run's money goes first below it.
	const money = `This run: ${moneyText(budget)}${free}`;
	const said = restated(context, failure, itemIndex, money, !runsAsTool(context));
	told.add(said);
	return said;
}

export function impossibleText({ impossibleCharges, overcharge }: CreditBudget): string {
	const over =
		overcharge === undefined
			? ''
			: `; the API reported an impossible charge (credits_charged: ${overcharge}) above its call's worst case: it is held back as reported (the API may have charged it), and no further call was sent`;
	if (impossibleCharges.length === 0) return over;
	const calls = impossibleCharges.length === 1 ? 'that call stays' : 'those calls stay';
	return `; the API reported an impossible charge (credits_charged: ${unique(impossibleCharges).slice(0, 3).join(', ')}) for ${plural(impossibleCharges.length, 'call')}, so the worst case of ${calls} counted against Max Credits${over}`;
}

export function heldBackText(budget: CreditBudget): string {
	if (budget.run.reserved <= 0) return '';
	return `, and ${budget.run.reserved} held back for answers that were lost${budget.impossibleCharges.length > 0 || budget.overcharge !== undefined ? ' or unreadable' : ''} (the API may have charged them)`;
}

/**
 * A failure that ends a charging run wherever it is met (Stop, or a later try of Retry On Fail
 * that fails before sending) says what the run charged and holds back.
 */
export function withRunMoney(
	context: IExecuteFunctions,
	failure: ReturnType<typeof asNodeError>,
): ReturnType<typeof asNodeError> {
	const budget = knownBudgetOf(context);
	if (!budget) return failure;
	return withMoney(context, failure, failure.context.itemIndex as number | undefined, budget);
}
