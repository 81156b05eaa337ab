/** Deterministic randomness: a seeded generator, a hash of two integers, weighted choices. */

/** A small, fast, seeded PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A 32-bit hash of two integers: per-contact details derived without storing them. */
export function hash32(a: number, b: number): number {
	let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
	h ^= h >>> 16;
	h = Math.imul(h, 0x7feb352d);
	h ^= h >>> 15;
	h = Math.imul(h, 0x846ca68b);
	h ^= h >>> 16;
	return h >>> 0;
}

export function weightedPicker<T>(items: T[], weightOf: (item: T) => number): (random: number) => T {
	const cumulative: number[] = [];
	let total = 0;
	for (const item of items) {
		total += weightOf(item);
		cumulative.push(total);
	}
	return (random) => {
		const target = random * total;
		let low = 0;
		let high = cumulative.length - 1;
		while (low < high) {
			const mid = (low + high) >> 1;
			if (cumulative[mid] > target) high = mid;
			else low = mid + 1;
		}
		return items[low];
	};
}
