/**
 * When this process's HTTP requests started and answered (node:http diagnostics channels, which
 * n8n's request helper goes through), to split a node run's wall time into the time before its
 * first call, the span of its calls, and the time after its last answer.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

export interface HttpTimelineFigures {
	requests: number;
	before_first_call_s: number;
	calls_span_s: number;
	after_last_answer_s: number;
}

export class HttpTimeline {
	private first: bigint | undefined;
	private last: bigint | undefined;
	private count = 0;
	private readonly onStart = () => {
		this.count++;
		this.first ??= process.hrtime.bigint();
	};
	private readonly onFinish = () => {
		this.last = process.hrtime.bigint();
	};

	start(): void {
		subscribe('http.client.request.start', this.onStart);
		subscribe('http.client.response.finish', this.onFinish);
	}

	stop(runStarted: bigint, runEnded: bigint): HttpTimelineFigures {
		unsubscribe('http.client.request.start', this.onStart);
		unsubscribe('http.client.response.finish', this.onFinish);
		const s = (from: bigint, to: bigint) => Math.round(Number(to - from) / 1e6) / 1000;
		const first = this.first ?? runEnded;
		const last = this.last ?? runEnded;
		return {
			requests: this.count,
			before_first_call_s: s(runStarted, first),
			calls_span_s: s(first, last),
			after_last_answer_s: s(last, runEnded),
		};
	}
}
