/**
 * Sandbox performance figures (`npm run bench:sandbox`): start time for 1,000,000 contacts,
 * search latency (p50/p95/max) over varied filter combinations and how many contacts they match,
 * resident memory, and export throughput through a signed URL for a 1,000,000-member list. Prints
 * figures; asserts nothing.
 */
import { execFile } from 'node:child_process';

import { request } from 'undici';

import { FUNDING_STAGES, SENIORITIES } from '../nodes/ContactData/shared/client/contract';
import { KEYS } from '../sandbox/accounts.cjs';
import { seededRandom } from '../sandbox/random.cjs';
import { startSandbox } from '../sandbox/server.cjs';
import { DEPARTMENTS, INDUSTRIES, TECHNOLOGIES, titlesOf } from '../sandbox/vocab.cjs';

const CONTACTS = Number(process.env.SANDBOX_CONTACTS ?? 1_000_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 400);

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function pick<T>(random: () => number, items: readonly T[], max: number): T[] {
	const count = 1 + Math.floor(random() * max);
	return Array.from({ length: count }, () => items[Math.floor(random() * items.length)]);
}

/** Every title the sandbox gives its contacts, so a Job Title filter (whole words) finds real matches. */
function titleVocabulary(): string[] {
	const titles = DEPARTMENTS.flatMap((department) =>
		SENIORITIES.flatMap((seniority) => titlesOf(department, seniority)),
	);
	return [...new Set(titles)];
}

/** A varied set of filter combinations, from none to all at once, some of them costly. */
function filterSets(count: number): Array<Record<string, unknown>> {
	const random = seededRandom(2024);
	const titles = titleVocabulary();
	const keywords = [
		'san',
		'eng',
		'john',
		'acme',
		'sales director',
		'new york',
		'data sci',
		'a b c',
		'lab',
		'blue wave',
		'm',
	];
	const countries = ['US', 'gb', 'DE', 'fr', 'IN', 'CA', 'AU', 'BR', 'JP', 'SG'];
	const departments = [
		'engineering',
		'sales',
		'marketing',
		'product',
		'finance',
		'data',
		'operations',
	];
	// The costly ones first: a title word most contacts share (the largest whole-word match), many words.
	const sets: Array<Record<string, unknown>> = [
		{},
		{ title: ['Engineer'] },
		{ keywords: 'a b c d e f g h' },
	];
	while (sets.length < count) {
		const filters: Record<string, unknown> = {};
		if (random() < 0.4) filters.title = pick(random, titles, 3);
		if (random() < 0.4) filters.seniority = pick(random, SENIORITIES, 3);
		if (random() < 0.3) filters.industry = pick(random, INDUSTRIES, 4);
		if (random() < 0.3) filters.department = pick(random, departments, 2);
		if (random() < 0.3) filters.tech_stack = pick(random, TECHNOLOGIES, 3);
		if (random() < 0.3) {
			const min = Math.floor(random() * 500);
			filters.company_size = `${min}-${min + Math.floor(random() * 20_000)}`;
		}
		if (random() < 0.3) filters.funding_stage = pick(random, FUNDING_STAGES, 4);
		if (random() < 0.4) filters.country = pick(random, countries, 3);
		if (random() < 0.35) filters.keywords = keywords[Math.floor(random() * keywords.length)];
		sets.push(filters);
	}
	return sets;
}

async function post(url: string, body: unknown): Promise<any> {
	const response = await request(url, {
		method: 'POST',
		headers: { authorization: `Bearer ${KEYS.growth}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return response.body.json();
}

/**
 * Downloads a URL, discarding the body. curl runs in its own process, so the figure is the
 * sandbox's throughput rather than this process's share of one event loop; undici otherwise.
 */
async function download(url: string): Promise<{ bytes: number; seconds: number; status: number }> {
	const started = performance.now();
	const curl = await new Promise<string | null>((resolve) => {
		execFile(
			'curl',
			['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', url],
			(error, stdout) => resolve(error ? null : stdout),
		);
	});
	if (curl) {
		const [status, bytes] = curl.trim().split(' ').map(Number);
		return { bytes, status, seconds: (performance.now() - started) / 1000 };
	}
	const response = await request(url);
	let bytes = 0;
	for await (const chunk of response.body) bytes += (chunk as Buffer).length;
	return { bytes, status: response.statusCode, seconds: (performance.now() - started) / 1000 };
}

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** How many contacts a group of searches matched (the first page's `total`), so a figure on no matches shows. */
function describeMatches(searches: Array<{ total: number }>): string {
	const totals = searches.map(({ total }) => total).sort((a, b) => a - b);
	const none = totals.filter((total) => total === 0).length;
	return (
		`${totals.length} combinations, ${totals.length - none} matching something (${none} nothing); ` +
		`matches p50 ${percentile(totals, 50).toLocaleString('en-US')}, max ${totals[totals.length - 1].toLocaleString('en-US')}`
	);
}

async function main(): Promise<void> {
	let peakRss = 0;
	const sampler = setInterval(() => {
		peakRss = Math.max(peakRss, process.memoryUsage().rss);
	}, 20);

	const started = performance.now();
	const sandbox = await startSandbox({ port: 0, contacts: CONTACTS, rateLimits: false });
	const startMs = performance.now() - started;
	const rssAfterStart = process.memoryUsage().rss;
	console.log(
		`start: ${CONTACTS.toLocaleString('en-US')} contacts ready in ${startMs.toFixed(0)} ms; rss ${mb(rssAfterStart)}`,
	);

	// Search: each filter set twice (first page, then the page its cursor leads to).
	const latencies: number[] = [];
	const slowest: Array<{ ms: number; filters: unknown }> = [];
	const matches: Array<{ total: number; filters: Record<string, unknown> }> = [];
	for (const filters of filterSets(SEARCHES / 2)) {
		let cursor: string | null = null;
		for (let page = 0; page < 2; page++) {
			const t = performance.now();
			const body: any = await post(`${sandbox.url}/v1/search`, {
				filters,
				limit: 100,
				...(cursor ? { cursor } : {}),
			});
			const ms = performance.now() - t;
			latencies.push(ms);
			slowest.push({ ms, filters });
			if (page === 0) matches.push({ total: body.total, filters });
			cursor = body.next_cursor;
			if (!cursor) break;
		}
	}
	latencies.sort((a, b) => a - b);
	slowest.sort((a, b) => b.ms - a.ms);
	console.log(
		`search: ${latencies.length} requests over ${SEARCHES / 2} filter combinations: ` +
			`p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ` +
			`max ${latencies[latencies.length - 1].toFixed(1)} ms`,
	);
	console.log(
		`  slowest: ${slowest[0].ms.toFixed(1)} ms for ${JSON.stringify(slowest[0].filters)}`,
	);
	console.log(`  matches: ${describeMatches(matches)}`);
	console.log(
		`  with a Job Title filter: ${describeMatches(matches.filter(({ filters }) => 'title' in filters))}`,
	);

	// Export: every contact, through the signed URL, counted as it streams.
	const list = await post(`${sandbox.url}/v1/lists`, { name: 'Everyone', filters: {} });
	for (const format of ['csv', 'json'] as const) {
		const exported = await post(`${sandbox.url}/v1/lists/${list.id}/export`, { format });
		const { bytes, seconds, status } = await download(exported.url);
		console.log(
			`export ${format}: ${exported.contact_count.toLocaleString('en-US')} members, ${mb(bytes)} in ${seconds.toFixed(2)} s ` +
				`= ${(bytes / 1024 / 1024 / seconds).toFixed(1)} MB/s (status ${status})`,
		);
	}

	clearInterval(sampler);
	peakRss = Math.max(peakRss, process.memoryUsage().rss);
	console.log(
		`memory: rss after start ${mb(rssAfterStart)}, peak ${mb(peakRss)} (the sandbox and this script's searches share the process)`,
	);
	await sandbox.close();
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
