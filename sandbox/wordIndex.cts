/**
 * Word indexes of the data set's vocabularies (names, titles, companies, cities): each word once,
 * sorted, with the entries that hold it. A whole word is one binary search; the words beginning with
 * a prefix are one contiguous run. Title and keyword matching cost what they find, not the vocabulary.
 */
import type { Dataset } from './data.cjs';

export class WordIndex {
	private readonly words: string[];
	private readonly entries: number[][];

	/** `vocabulary[entry]` holds the entry's words. */
	constructor(vocabulary: readonly string[][]) {
		const byWord = new Map<string, number[]>();
		vocabulary.forEach((entryWords, entry) => {
			for (const word of entryWords) {
				const holders = byWord.get(word);
				if (!holders) byWord.set(word, [entry]);
				else if (holders[holders.length - 1] !== entry) holders.push(entry);
			}
		});
		this.words = [...byWord.keys()].sort();
		this.entries = this.words.map((word) => byWord.get(word) as number[]);
	}

	/** Position of the first word not sorting before `text`. */
	private lowerBound(text: string): number {
		let low = 0;
		let high = this.words.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.words[middle] < text) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	/** The entries holding `word` as a whole word. */
	holding(word: string): readonly number[] {
		const at = this.lowerBound(word);
		return this.words[at] === word ? this.entries[at] : [];
	}

	/** Calls `visit` for each entry holding a word that begins with `prefix` (an entry may come more than once). */
	forEachBeginning(prefix: string, visit: (entry: number) => void): void {
		for (
			let at = this.lowerBound(prefix);
			at < this.words.length && this.words[at].startsWith(prefix);
			at++
		) {
			for (const entry of this.entries[at]) visit(entry);
		}
	}
}

export interface VocabularyIndexes {
	first: WordIndex;
	last: WordIndex;
	title: WordIndex;
	company: WordIndex;
	city: WordIndex;
}

/** Built on first use, once per data set: its vocabularies never change after generation. */
const built = new WeakMap<Dataset, VocabularyIndexes>();

export function vocabularyIndexes(ds: Dataset): VocabularyIndexes {
	let indexes = built.get(ds);
	if (!indexes) {
		indexes = {
			first: new WordIndex(ds.firstNameWords),
			last: new WordIndex(ds.lastNameWords),
			title: new WordIndex(ds.titles.map((entry) => entry.words)),
			company: new WordIndex(ds.companyWords),
			city: new WordIndex(ds.cities.map((entry) => entry.words)),
		};
		built.set(ds, indexes);
	}
	return indexes;
}
