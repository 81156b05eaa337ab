// A small Chrome DevTools Protocol client for driving Debian's Chromium headless from Node 24 (its global
// WebSocket), so the browser checks need no dependency. Only what the editor journey needs: open a page,
// evaluate script, click and type as a person would (real input events), wait, take screenshots.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Starts Chromium headless on a fresh profile; resolves with the browser once its DevTools endpoint answers. */
export async function launch({ width = 1440, height = 810 } = {}) {
	const profile = mkdtempSync(join(tmpdir(), 'chromium-'));
	const child = spawn(
		CHROMIUM,
		[
			'--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync', '--hide-scrollbars',
			'--remote-debugging-port=0', `--user-data-dir=${profile}`, `--window-size=${width},${height}`, 'about:blank',
		],
		{ stdio: ['ignore', 'ignore', 'pipe'] },
	);
	const endpoint = await new Promise((resolve, reject) => {
		let seen = '';
		const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${seen.slice(-500)}`)), 60_000);
		child.stderr.on('data', (chunk) => {
			seen += chunk;
			const match = /DevTools listening on (ws:\/\/[^\s]+)/.exec(seen);
			if (match) { clearTimeout(timer); resolve(match[1]); }
		});
		child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`Chromium exited (${code}): ${seen.slice(-500)}`)); });
	});
	const http = endpoint.replace(/^ws:/, 'http:').replace(/\/devtools\/browser\/.*$/, '');
	const targets = await (await fetch(`${http}/json/list`)).json();
	const pageTarget = targets.find((target) => target.type === 'page');
	const page = await Page.connect(pageTarget.webSocketDebuggerUrl, { width, height });
	return {
		page,
		async close() {
			page.close();
			child.kill('SIGTERM');
			await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

export class Page {
	static async connect(url, viewport) {
		const socket = new WebSocket(url);
		await new Promise((resolve, reject) => {
			socket.addEventListener('open', resolve, { once: true });
			socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
		});
		const page = new Page(socket);
		await page.send('Page.enable');
		await page.send('Runtime.enable');
		await page.send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false });
		return page;
	}

	constructor(socket) {
		this.socket = socket;
		this.nextId = 1;
		this.pending = new Map();
		this.consoleErrors = [];
		socket.addEventListener('message', (message) => {
			const data = JSON.parse(message.data);
			if (data.id && this.pending.has(data.id)) {
				const { resolve, reject } = this.pending.get(data.id);
				this.pending.delete(data.id);
				if (data.error) reject(new Error(`${data.error.message} ${data.error.data ?? ''}`));
				else resolve(data.result);
			}
		});
	}

	send(method, params = {}) {
		const id = this.nextId++;
		this.socket.send(JSON.stringify({ id, method, params }));
		return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
	}

	close() {
		this.socket.close();
	}

	async goto(url) {
		await this.send('Page.navigate', { url });
		await this.waitFor(() => document.readyState === 'complete', { what: `page ${url} loaded` });
	}

	/** Runs a function in the page (no closures: pass values as arguments) and returns its JSON result. */
	async evaluate(fn, ...args) {
		const { result, exceptionDetails } = await this.send('Runtime.evaluate', {
			expression: `(${fn})(...${JSON.stringify(args)})`,
			awaitPromise: true,
			returnByValue: true,
		});
		if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
		return result.value;
	}

	/** Polls `fn` in the page until it returns a truthy value; returns that value. */
	async waitFor(fn, { args = [], timeout = 60_000, what = String(fn) } = {}) {
		const deadline = Date.now() + timeout;
		for (;;) {
			const value = await this.evaluate(fn, ...args).catch(() => undefined);
			if (value) return value;
			if (Date.now() > deadline) throw new Error(`timed out after ${timeout / 1000} s waiting for ${what}`);
			await delay(250);
		}
	}

	/** The centre of the first visible element matching `selector` (and containing `text`, when given). */
	async locate(selector, text, timeout) {
		return await this.waitFor(
			(sel, txt) => {
				const element = [...document.querySelectorAll(sel)].find((candidate) => {
					const box = candidate.getBoundingClientRect();
					return box.width > 0 && box.height > 0 && (!txt || candidate.textContent.includes(txt));
				});
				if (!element) return null;
				element.scrollIntoView({ block: 'center', inline: 'center' });
				const box = element.getBoundingClientRect();
				return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
			},
			{ args: [selector, text ?? null], timeout, what: `${selector}${text ? ` with "${text}"` : ''}` },
		);
	}

	/** A real mouse click (pressed and released) in the middle of the element. */
	async click(selector, { text, count = 1, timeout } = {}) {
		const { x, y } = await this.locate(selector, text, timeout);
		await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
		for (let click = 1; click <= count; click++) {
			await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: click });
			await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: click });
		}
	}

	/** Clicks into a field and types into it as keyboard input. */
	async type(selector, text) {
		await this.click(selector);
		await this.send('Input.insertText', { text });
	}

	async press(key) {
		const codes = { Escape: 27, Enter: 13 };
		for (const type of ['keyDown', 'keyUp']) {
			await this.send('Input.dispatchKeyEvent', { type, key, code: key, windowsVirtualKeyCode: codes[key] });
		}
	}

	async screenshot(file) {
		const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
		writeFileSync(file, Buffer.from(data, 'base64'));
	}
}
