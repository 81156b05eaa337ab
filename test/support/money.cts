/**
 * What a text about money says, in the words of notes on issue 37: a charge ("X credits charged",
 * "charged X credits", "nothing was charged"), what it holds back ("Y held back"), and whether it
 * says something was "not charged". Semantics, not sentences: any wording around them passes.
 */
export interface MoneyStatement {
	/** The charge it states; undefined when it states none. */
	charged?: number;
	/** What it holds back (0 when it says nothing held back). */
	heldBack: number;
	/** It says "not charged" of something. */
	notCharged: boolean;
}

const CHARGED = /(\d+) credits? (?:were |was )?charged|charged (\d+) credits?/i;
const NOTHING_CHARGED = /nothing (?:was |has been )?charged/i;
const HELD_BACK = /(\d+) (?:credits? )?held back/i;
const NOT_CHARGED = /\bnot (?:been )?charged\b/i;

export function moneyOf(text: string): MoneyStatement {
	const charge = CHARGED.exec(text);
	const charged = charge
		? Number(charge[1] ?? charge[2])
		: NOTHING_CHARGED.test(text)
			? 0
			: undefined;
	const held = HELD_BACK.exec(text);
	return { charged, heldBack: held ? Number(held[1]) : 0, notCharged: NOT_CHARGED.test(text) };
}
