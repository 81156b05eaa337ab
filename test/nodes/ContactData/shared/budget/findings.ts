/**
 * What the tests of issue 37's findings share: the node on the canvas against a model of the API,
 * and the money statements of a text, read by their words rather than whole sentences.
 */
import type { ContactApi } from '../../../../support/contactApi.cjs';
import { run, type RunOptions, type TestSandbox } from '../../setup';

/** The node on the canvas against `api` (its Base URL in the credential, no sandbox needed). */
export const runOn = async (api: ContactApi, options: RunOptions) =>
	await run({ url: api.url } as TestSandbox, { ...options, baseUrl: api.url });

/** An error's or error item's words: its message (or `error`) and its description. */
export const textOf = (error: Record<string, unknown> | undefined): string =>
	`${String(error?.message ?? error?.error ?? '')} ${String(error?.description ?? '')}`;

/** Every charge a text states: "X credit(s) charged" or "charged X credit(s)". */
export function chargesIn(text: string): number[] {
	const said = /(\d[\d,]*) credits? charged|charged (\d[\d,]*) credits?/g;
	return [...text.matchAll(said)].map((match) => Number((match[1] ?? match[2]).replace(/,/g, '')));
}

/** The distinct charges a text states, to compare with the one it must state. */
export const chargesStated = (text: string) => [...new Set(chargesIn(text))];

/** Contact ids `ct_<prefix>000`…, `count` of them. */
export const contactIds = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, at) => `ct_${prefix}${String(at).padStart(3, '0')}`);

/** Only `Date` is faked, from `now` on: the clock stands still; timers and I/O run as usual. */
export function fakeDateOnly(now: number): void {
	jest.useFakeTimers({
		now,
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'requestAnimationFrame',
			'cancelAnimationFrame',
			'requestIdleCallback',
			'cancelIdleCallback',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
}
