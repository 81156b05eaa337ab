// The bench's floors and input data: the figures `npm run bench` compares against depend on them.
import { itemsWithRepeats } from '../../../bench/cases/prepare.cjs';
import {
	fullRateFloorS,
	idleWindowFloorS,
	scheduleFloorS,
	searchFloorCalls,
	unlockFloorCalls,
} from '../../../bench/lib/floors.cjs';

describe('bench floors', () => {
	it('counts the fewest calls the contract allows', () => {
		expect(unlockFloorCalls(4_500)).toBe(45);
		expect(unlockFloorCalls(4_501)).toBe(46);
		expect(searchFloorCalls(10_000)).toBe(100);
		// Search pages through 10,000 results at most.
		expect(searchFloorCalls(250_000)).toBe(100);
	});

	it('gives the full-rate floor in scaled seconds', () => {
		expect(fullRateFloorS(45, 60, 1)).toBe(45);
		expect(fullRateFloorS(45, 60, 6)).toBe(7.5);
		expect(fullRateFloorS(100, 100, 6)).toBe(10);
	});

	it('lets a job that fits in one idle window go at once', () => {
		expect(idleWindowFloorS(45, 60, 6)).toBe(0);
		expect(idleWindowFloorS(60, 60, 6)).toBe(0);
		expect(idleWindowFloorS(61, 60, 6)).toBe(10);
		expect(idleWindowFloorS(150, 60, 6)).toBe(20);
	});

	it('schedules calls latency-bound within a window and a window apart beyond it', () => {
		expect(scheduleFloorS(45, 60, 6, 0.004)).toBeCloseTo(45 * 0.004, 9);
		// 150 calls: 60 at 0 s, 60 at 10 s, 30 at 20 s; the last answers 30 latencies after 20 s.
		expect(scheduleFloorS(150, 60, 6, 0.002)).toBeCloseTo(20 + 30 * 0.002, 9);
		// Latency longer than a window's share: the calls themselves are the bound.
		expect(scheduleFloorS(120, 60, 6, 0.5)).toBeCloseTo(60, 9);
	});
});

describe('bench input items', () => {
	it('holds exactly the distinct ids asked for, repeats spread across batches', () => {
		const ids = Array.from({ length: 4_500 }, (_, i) => `ct_${i}`);
		const items = itemsWithRepeats(ids, 5_000);
		expect(items).toHaveLength(5_000);
		expect(new Set(items.map((item) => item.id)).size).toBe(4_500);
		// Every repeat names an id that appeared earlier.
		const seen = new Set<string>();
		let repeats = 0;
		let repeatsFromEarlierBatches = 0;
		for (const { id } of items) {
			if (seen.has(id)) {
				repeats++;
				if (Math.floor(Number(id.slice(3)) / 100) < Math.floor(seen.size / 100))
					repeatsFromEarlierBatches++;
			}
			seen.add(id);
		}
		expect(repeats).toBe(500);
		expect(repeatsFromEarlierBatches).toBeGreaterThan(250);
	});
});
