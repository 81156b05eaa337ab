/** The sandbox's weighted picker: the same choice as a plain binary search over cumulative weights. */
import { seededRandom, weightedPicker } from '../../sandbox/random.cjs';

/** The reference: the first item whose cumulative weight exceeds random × total. */
function plainPick<T>(items: T[], weightOf: (item: T) => number, random: number): T {
	const total = items.reduce((sum, item) => sum + weightOf(item), 0);
	let cumulative = 0;
	for (const item of items) {
		cumulative += weightOf(item);
		if (cumulative > random * total) return item;
	}
	return items[items.length - 1];
}

describe('weightedPicker', () => {
	it.each([
		['uniform weights', Array.from({ length: 1000 }, () => 1)],
		[
			'skewed weights',
			Array.from({ length: 500 }, (_, index) => Math.sqrt(Math.min((index * 7) % 301, 300)) + 0.01),
		],
		['a few heavy items among zeros', [0, 0, 5, 0, 1, 0, 0, 30, 0, 2]],
		['one item', [3]],
	])('%s: picks what a plain search picks, at every draw and at the edges', (_, weights) => {
		const items = weights.map((weight, index) => ({ index, weight }));
		const pick = weightedPicker(items, (item) => item.weight);
		const random = seededRandom(7);
		const draws = [0, 1 - Number.EPSILON, 0.5, ...Array.from({ length: 20_000 }, () => random())];
		const mismatches = draws.filter(
			(draw) => pick(draw) !== plainPick(items, (item) => item.weight, draw),
		);
		expect(mismatches).toEqual([]);
	});
});
