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

/**
 * A picker of `items` by weight: `random` in [0, 1) chooses the first item whose cumulative weight
 * exceeds `random × total`. A table of buckets over [0, total) narrows the search to the few items a
 * bucket can hold, so a pick costs a step or two instead of a full binary search (the sandbox picks
 * millions at start); the choice is the same as the plain search's.
 */
export function weightedPicker<T>(
	items: T[],
	weightOf: (item: T) => number,
): (random: number) => T {
	const cumulative = new Float64Array(items.length);
	let total = 0;
	items.forEach((item, index) => {
		total += weightOf(item);
		cumulative[index] = total;
	});
	const last = items.length - 1;
	/** The first index whose cumulative weight exceeds `target` within [low, high] (else `high`). */
	const search = (target: number, low: number, high: number) => {
		while (low < high) {
			const mid = (low + high) >> 1;
			if (cumulative[mid] > target) high = mid;
			else low = mid + 1;
		}
		return low;
	};
	const buckets = Math.max(1, items.length);
	const width = total / buckets;
	// starts[b]: the answer for the bucket's lower edge; a bucket's answers lie in [starts[b], starts[b + 1]].
	const starts = new Uint32Array(buckets + 1);
	for (let bucket = 0; bucket <= buckets; bucket++)
		starts[bucket] = search(bucket * width, 0, last);
	return (random) => {
		const target = random * total;
		// One bucket of margin either side absorbs rounding in target / width.
		const bucket = Math.min(buckets - 1, Math.floor(target / width));
		const low = starts[Math.max(0, bucket - 1)];
		const high = starts[Math.min(buckets, bucket + 2)];
		return items[search(target, low, high)];
	};
}
