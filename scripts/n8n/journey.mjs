// The browser journey of the end-to-end check, as a person would go: signs in to the n8n editor with headless
// Chromium (Debian's, driven by playwright-core, the client of n8n's own end-to-end tests; no browser is
// downloaded), opens the search → unlock example from the workflow list, executes it, reads the Unlock node's
// output table, then opens a variant that goes over its Max Credits and reads the error as the editor shows it.
// Takes the screenshots of docs/images/ on the way. Usage:
//   node journey.mjs <n8n base URL> <email> <password> <workflows JSON> <screenshot folder>
//   workflows JSON: {"crm": "<id>", "overBudget": "<id>", "alert": "<id>", "agent": "<id>"}
//   CHROMIUM: the browser's executable (default /usr/bin/chromium)
// Prints one line per step; exits non-zero, with a screenshot of the page (failure.png), on the first failure.
import { join } from 'node:path';

import { chromium } from 'playwright-core';

const [baseUrl, email, password, workflowsJson, shotsDir] = process.argv.slice(2);
const workflows = JSON.parse(workflowsJson);
const CRM_NAME = 'search, unlock within a budget';
const UNLOCK = 'Unlock within 25 credits';

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
	args: ['--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--hide-scrollbars'],
});
const page = await browser.newPage({ viewport: { width: 1440, height: 810 } });
page.setDefaultTimeout(60_000);
const shot = (file) => page.screenshot({ path: join(shotsDir, file) });
let step = 'start';
function ok(what) {
	console.log(`  ok    browser: ${what}`);
}

/** Polls `fn` in the page until it returns a truthy value; returns that value. */
async function waitFor(fn, { timeout = 60_000, what = String(fn) } = {}) {
	const handle = await page
		.waitForFunction(fn, undefined, { timeout, polling: 250 })
		.catch((error) => {
			throw new Error(
				`timed out after ${timeout / 1000} s waiting for ${what} (${error.message.split('\n')[0]})`,
			);
		});
	return await handle.jsonValue();
}

/** The first visible element matching `selector` (and containing `text`, when given). */
const visible = (selector, text) =>
	page
		.locator(selector)
		.filter({ visible: true, ...(text ? { hasText: text } : {}) })
		.first();

/** The canvas nodes and whether each shows the success mark (disabled nodes run nothing and show none). */
const canvasState = () =>
	page.evaluate(() =>
		[...document.querySelectorAll('[data-test-id="canvas-node"]')].map((node) => ({
			name: node.getAttribute('data-node-name'),
			disabled: /\(Deactivated\)/.test(node.textContent),
			success: Boolean(node.querySelector('[data-test-id="canvas-node-status-success"]')),
		})),
	);

/** The output panel's table: its column names and the cells of its first rows. */
const outputTable = () =>
	page.evaluate(() => {
		const table = document.querySelector('[data-test-id="output-panel"] table');
		if (!table) return null;
		const cells = (row, tag) =>
			[...row.querySelectorAll(tag)].map((cell) => cell.textContent.trim());
		return {
			columns: cells(table.querySelector('thead tr') ?? table, 'th').filter(Boolean),
			rows: [...table.querySelectorAll('tbody tr')].slice(0, 3).map((row) => cells(row, 'td')),
			count: document.querySelector('[data-test-id="ndv-items-count"]')?.textContent.trim() ?? '',
		};
	});

async function openWorkflow(id) {
	await page.goto(`${baseUrl}/workflow/${id}`);
	await waitFor(() => document.querySelectorAll('[data-test-id="canvas-node"]').length > 0, {
		what: 'the canvas',
	});
}

async function executeAndWait(what) {
	await visible('[data-test-id="execute-workflow-button"]').click();
	return await waitFor(
		() => {
			const nodes = [...document.querySelectorAll('[data-test-id="canvas-node"]')];
			const done = nodes.filter((node) =>
				node.querySelector(
					'[data-test-id="canvas-node-status-success"], [data-test-id="canvas-node-status-error"]',
				),
			);
			const running = document.querySelector('[data-test-id="canvas-node-status-running"]');
			return !running &&
				done.length > 0 &&
				document.querySelector('[data-test-id="execute-workflow-button"]:not([disabled])')
				? done.length
				: 0;
		},
		{ timeout: 120_000, what },
	);
}

try {
	step = 'sign in';
	await page.goto(`${baseUrl}/signin`);
	await visible('input[type="email"], input[name="emailOrLdapLoginId"]').fill(email);
	await visible('input[type="password"]').fill(password);
	await visible('button[type="submit"], [data-test-id="form-submit-button"]').click();
	await waitFor(() => !location.pathname.startsWith('/signin'), {
		what: 'the editor after signing in',
	});
	ok('signs in through the sign-in form');

	step = 'open the example';
	await visible('[data-test-id="resources-list-item-workflow"]', CRM_NAME).click();
	await waitFor(() => document.querySelectorAll('[data-test-id="canvas-node"]').length > 0, {
		what: 'the canvas',
	});
	const opened = await page.evaluate(() => location.pathname);
	if (opened !== `/workflow/${workflows.crm}`)
		throw new Error(`opened ${opened}, not the example ${workflows.crm}`);
	ok('opens the search → unlock example from the workflow list');

	step = 'execute it';
	await executeAndWait('the example to finish');
	await waitFor(
		() =>
			[...document.querySelectorAll('[data-test-id="canvas-node"]')].every(
				(node) =>
					/\(Deactivated\)/.test(node.textContent) ||
					node.querySelector('[data-test-id="canvas-node-status-success"]'),
			),
		{ timeout: 30_000, what: 'every enabled node to show success' },
	);
	const state = await canvasState();
	if (!state.some((node) => node.disabled))
		throw new Error('the HubSpot node should ship disabled');
	await shot('editor-search-unlock-crm.png');
	ok(
		`executes it to the end: ${state.filter((node) => node.success).length} nodes succeeded, HubSpot disabled`,
	);

	step = 'read the Unlock output';
	await visible(`[data-test-id="canvas-node"][data-node-name="${UNLOCK}"]`).dblclick();
	await visible('[data-test-id="output-panel"] [data-test-id="radio-button-table"]').click({
		timeout: 30_000,
	});
	const table = await waitFor(
		() => {
			const found = document.querySelector('[data-test-id="output-panel"] table tbody tr');
			return Boolean(found);
		},
		{ timeout: 30_000, what: 'the output table' },
	).then(outputTable);
	const first = table.columns.slice(0, 4).join(', ');
	if (first !== 'name, title, company_name, email')
		throw new Error(`output columns start ${first}`);
	const emailColumn = table.columns.indexOf('email');
	if (!table.rows.every((row) => /@/.test(row[emailColumn] ?? ''))) {
		throw new Error(`no email in the table's first rows: ${JSON.stringify(table.rows)}`);
	}
	if (!table.columns.includes('credits_charged_in_run'))
		throw new Error(`no cost column: ${table.columns}`);
	if (!/^25 items/.test(table.count)) throw new Error(`items: ${table.count}`);
	await shot('editor-unlock-node.png');
	ok(
		`the Unlock node's output table: ${table.count}, columns ${first}, …, e.g. ${table.rows[0][emailColumn]}`,
	);
	await page.keyboard.press('Escape');

	step = 'an error as displayed';
	await openWorkflow(workflows.overBudget);
	await executeAndWait('the over-budget variant to stop');
	await visible(`[data-test-id="canvas-node"][data-node-name="${UNLOCK}"]`).dblclick();
	const shown = await waitFor(
		() => {
			const panel = document.querySelector('[data-test-id="output-panel"]');
			const text = panel?.innerText ?? '';
			return /Max Credits/.test(text) ? text : null;
		},
		{ timeout: 30_000, what: 'the error in the output panel' },
	);
	const message = shown.split('\n').find((line) => /Max Credits of 5\b/.test(line)) ?? '';
	if (!/Max Credits of 5 is not enough: .*Nothing was sent and nothing was charged/.test(message)) {
		throw new Error(`the error shown: ${shown.slice(0, 400)}`);
	}
	if (
		!/Raise Max Credits to \d+, or set When Max Credits Is Reached to Unlock What Fits/.test(shown)
	) {
		throw new Error(`the error shows no advice: ${shown.slice(0, 400)}`);
	}
	await shot('editor-unlock-error.png');
	ok(`the over-budget error as displayed: "${message.trim()}", with its advice`);
	await page.keyboard.press('Escape');

	step = 'the other examples';
	await openWorkflow(workflows.alert);
	await waitFor(
		() =>
			[...document.querySelectorAll('[data-test-id="canvas-node"]')].some((node) =>
				/On Job Change/.test(node.textContent),
			),
		{ what: 'the trigger subtitle "On Job Change"' },
	);
	await shot('editor-job-change-alert.png');
	ok('the job change alert shows its trigger as "On Job Change"');
	await openWorkflow(workflows.agent);
	await shot('editor-ai-agent-tools.png');
	ok('the AI agent example opens');
} catch (error) {
	await shot('failure.png').catch(() => {});
	console.error(`  FAIL  browser: ${step}: ${error.message}`);
	process.exitCode = 1;
} finally {
	await browser.close();
}
