// The browser journey of the end-to-end check, as a person would go: signs in to the n8n editor with headless
// Chromium (Debian's, driven by playwright-core, the client of n8n's own end-to-end tests; no browser is
// downloaded), opens the search → unlock example from the workflow list, executes it, reads the Unlock node's
// output table, opens a variant that goes over its Max Credits and reads the error as the editor shows it,
// drags a field of the input panel onto Contact ID Field and runs the node, searches "Contact Data" in the nodes
// panel and adds a new Unlock node to a new workflow. Takes the pictures of docs/images/n8n-<line>/ on the way,
// each the same from run to run (pictures.mjs), for the end-to-end check to compare. Usage:
//   node journey.mjs <n8n base URL> <email> <password> <workflows JSON> <screenshot folder>
//   workflows JSON: {"crm", "overBudget", "otherFilter", "alert", "agent", "drag"}: each workflow's id
//   CHROMIUM: the browser's executable (default /usr/bin/chromium)
//   JOURNEY_VIDEO: a folder; records the journey there as a demo video (demo.mjs: the steps a demo adds)
// Prints one line per step; exits non-zero, with a screenshot of the page (failure.png), on the first failure.
import { join } from 'node:path';

import { chromium } from 'playwright-core';

import { DEMO_OPENING, demoTriggerFires, linger, saveVideo } from './demo.mjs';
import { Editor } from './editor.mjs';
import { takePicture } from './pictures.mjs';

const [baseUrl, email, password, workflowsJson, shotsDir] = process.argv.slice(2);
const workflows = JSON.parse(workflowsJson);
const video = process.env.JOURNEY_VIDEO;
const CRM_NAME = 'search, unlock within a budget';
const SEARCH = 'Search VPs of Engineering';
const UNLOCK = 'Unlock within 25 credits';
const DRAG_UNLOCK = 'Unlock the prospects';
const ALERT_TRIGGER = 'When a contact changes job';
const VIEWPORT = { width: 1440, height: 810 };

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
	args: ['--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--hide-scrollbars'],
	// A demo goes at a pace a viewer can follow.
	slowMo: video ? 120 : 0,
});
const context = await browser.newContext({
	viewport: VIEWPORT,
	...(video ? { recordVideo: { dir: video, size: VIEWPORT } } : {}),
});
const page = await context.newPage();
page.setDefaultTimeout(60_000);
const editor = new Editor(page, baseUrl);
const { visible, waitFor } = {
	visible: editor.visible.bind(editor),
	waitFor: editor.waitFor.bind(editor),
};
const shot = (file) => takePicture(page, join(shotsDir, file));
const INPUT_MODE = (mode) =>
	`[data-test-id="ndv-input-panel"] [data-test-id="radio-button-${mode}"]`;
/**
 * A picture of an open node with its input as a table: n8n 1.123.81 places the schema view's rows a fraction
 * of a pixel apart from run to run, which moves hundreds of pixels of text. Schema is the view again after.
 */
async function nodeShot(file) {
	await visible(INPUT_MODE('table')).click();
	await waitFor(
		() =>
			!document.querySelector(
				'[data-test-id="ndv-input-panel"] [data-test-id="run-data-schema-item"]',
			),
		{ what: 'the input panel as a table' },
	);
	await shot(file);
	await visible(INPUT_MODE('schema')).click();
}
function passed(what) {
	console.log(`  pass  browser: ${what}`);
}
const journey = { page, editor, baseUrl, workflows, passed, shot, video };

/**
 * Signs in from the URL `npm start` prints (the base URL given, scripts/n8n/lib.sh's editor_url), as a new user
 * would: n8n asks to sign in, then opens where "/" leads, which must be Overview listing the examples. On 2.41.1
 * its instance-ai module led "/" to its Assistant page, with no way to the examples (issue 44, finding 1).
 */
async function signIn() {
	await page.goto(baseUrl);
	await visible('input[type="email"], input[name="emailOrLdapLoginId"]').fill(email);
	await visible('input[type="password"]').fill(password);
	await visible('button[type="submit"], [data-test-id="form-submit-button"]').click();
	await waitFor(() => !location.pathname.startsWith('/signin'), {
		what: 'the editor after signing in',
	});
	const landed = await waitFor(
		() =>
			document.querySelector('[data-test-id="resources-list-item-workflow"]')
				? location.pathname
				: null,
		{ timeout: 30_000, what: 'the workflow list' },
	).catch(async (error) => {
		const shown = await page.evaluate(
			() => `${location.pathname}: ${document.body.innerText.slice(0, 300)}`,
		);
		throw new Error(`signing in from ${baseUrl} led to ${shown} (${error.message})`);
	});
	if (landed !== '/home/workflows')
		throw new Error(`signing in from ${baseUrl} led to ${landed}, not Overview`);
	await visible('[data-test-id="resources-list-item-workflow"]', CRM_NAME).waitFor();
	passed(
		`signs in from ${baseUrl}, as npm start prints it, and lands on Overview with the examples`,
	);
}

async function executeTheExample() {
	await visible('[data-test-id="resources-list-item-workflow"]', CRM_NAME).click();
	await waitFor(() => document.querySelectorAll('[data-test-id="canvas-node"]').length > 0, {
		what: 'the canvas',
	});
	const opened = await page.evaluate(() => location.pathname);
	if (opened !== `/workflow/${workflows.crm}`)
		throw new Error(`opened ${opened}, not the example ${workflows.crm}`);
	passed('opens the search → unlock example from the workflow list');
	await editor.executeAndWait('the example to finish');
	await waitFor(
		() =>
			[...document.querySelectorAll('[data-test-id="canvas-node"]')].every(
				(node) =>
					/\(Deactivated\)/.test(node.textContent) ||
					node.querySelector('[data-test-id="canvas-node-status-success"]'),
			),
		{ timeout: 30_000, what: 'every enabled node to show success' },
	);
	const state = await editor.canvasState();
	if (!state.some((node) => node.disabled))
		throw new Error('the HubSpot node should ship disabled');
	await shot('editor-search-unlock-crm.png');
	passed(
		`executes it to the end: ${state.filter((node) => node.success).length} nodes succeeded, HubSpot disabled`,
	);
}

async function readTheUnlockOutput() {
	await editor.canvasNode(UNLOCK).dblclick();
	const table = await editor.readOutputTable();
	const first = table.columns.slice(0, 4).join(', ');
	if (first !== 'name, title, company_name, email')
		throw new Error(`output columns start ${first}`);
	const emailColumn = table.columns.indexOf('email');
	if (!table.rows.every((row) => /@/.test(row[emailColumn] ?? ''))) {
		throw new Error(`no email in the table's first rows: ${JSON.stringify(table.rows)}`);
	}
	const panel = await visible('[data-test-id="output-panel"]').innerText();
	// The journey's run is the example's first (the check resets the sandbox before): 25 new contacts.
	if (!/\b25 credits charged\b/.test(panel))
		throw new Error(`not the first run's cost above the table: ${panel.slice(0, 300)}`);
	if (!/^25 items/.test(table.count)) throw new Error(`items: ${table.count}`);
	await linger(journey);
	await nodeShot('editor-unlock-node.png');
	passed(
		`the Unlock node's output table: ${table.count}, columns ${first}, …, e.g. ${table.rows[0][emailColumn]}`,
	);
	await page.keyboard.press('Escape');
}

/** The example's Search: one Filters section, the API's other filters inside it (version 2.2). */
async function theSearchFilters() {
	await editor.canvasNode(SEARCH).dblclick();
	const shown = await waitFor(
		() => {
			const text = document.querySelector('[data-test-id="node-parameters"]')?.innerText ?? '';
			return /Seniority/.test(text) ? text : null;
		},
		{ what: "the Search node's parameters" },
	);
	const sections = shown
		.split('\n')
		.filter((line) => /^(Additional |Other )?Filters$/.test(line.trim()));
	if (sections.length !== 1 || sections[0].trim() !== 'Filters')
		throw new Error(`the Search node's filter sections: ${JSON.stringify(sections)}`);
	await linger(journey);
	await nodeShot('editor-search-filters.png');
	passed('the Search node shows one Filters section');
	await page.keyboard.press('Escape');
	await theOtherFiltersGuidance();
}

/**
 * A filter by API name, as a user adds it: the guidance on what to type is on screen (issue 44, finding 2: n8n
 * shows no hint of a collection, so it was on neither line). The workflow is the example with one such filter.
 */
async function theOtherFiltersGuidance() {
	await editor.openWorkflow(workflows.otherFilter);
	await editor.canvasNode(SEARCH).dblclick();
	const guidance = await waitFor(
		() =>
			(document.querySelector('[data-test-id="node-parameters"]')?.innerText ?? '')
				.split('\n')
				.find((line) => /^The API has 270\+ filters\b/.test(line.trim())) ?? null,
		{ timeout: 30_000, what: 'the guidance of Other Filters by API Name' },
	);
	passed(`a filter by API name shows its guidance: "${guidance.trim()}"`);
	await page.keyboard.press('Escape');
}

/** The texts of the toasts on screen. */
const toasts = () =>
	page.evaluate(() =>
		[...document.querySelectorAll('.el-notification')].map((toast) => toast.innerText.trim()),
	);

/**
 * The over-budget refusal as the canvas shows it: a short message (what happened and the first remedy, at most
 * 120 characters), which the toast repeats, and the rest below it in the panel (issue 44, finding 4: the toast
 * repeated all 241 characters while the panel showed them). Its remedy is said once in the panel.
 */
async function anErrorAsDisplayed() {
	await editor.openWorkflow(workflows.overBudget);
	await editor.executeAndWait('the over-budget variant to stop');
	const toast = await waitFor(
		() =>
			[...document.querySelectorAll('.el-notification')]
				.map((each) => each.innerText.trim())
				.find((text) => /Max Credits of 5\b/.test(text)) ?? null,
		{ timeout: 30_000, what: "the error's toast" },
	).catch(async (error) => {
		throw new Error(`${error.message}; toasts: ${JSON.stringify(await toasts())}`);
	});
	await editor.canvasNode(UNLOCK).dblclick();
	const shown = await waitFor(
		() => {
			const text = document.querySelector('[data-test-id="output-panel"]')?.innerText ?? '';
			return /Max Credits/.test(text) ? text : null;
		},
		{ timeout: 30_000, what: 'the error in the output panel' },
	);
	const message = (shown.split('\n').find((line) => /Max Credits of 5\b/.test(line)) ?? '').trim();
	if (
		!/^Max Credits of 5 is not enough\b.*\bnothing was sent\b.*Raise Max Credits to 25\.$/.test(
			message,
		)
	)
		throw new Error(`the error shown: ${shown.slice(0, 400)}`);
	if (message.length > 120)
		throw new Error(`the error's message is ${message.length} characters: ${message}`);
	if (!toast.includes(message) || toast.includes('You can also'))
		throw new Error(`the toast is not the short message "${message}": ${toast}`);
	// Its remedy is said once: in the message, not again in the description (issue 38, finding 4).
	const remedies = shown.match(/raise Max Credits to \d+/gi) ?? [];
	if (remedies.length !== 1) {
		throw new Error(`the error shows its advice ${remedies.length} times: ${shown.slice(0, 400)}`);
	}
	await linger(journey);
	await nodeShot('editor-unlock-error.png');
	passed(
		`the over-budget error as displayed: "${message}" (${message.length} characters), the toast the same, the rest below it`,
	);
	await page.keyboard.press('Escape');
}

/**
 * Contact ID Field reads "id", which the input items lack; prospect_id, dragged from the input panel, must
 * drop as its name (not as an expression for its value), and the node then unlocks both prospects.
 */
async function dragAField() {
	await editor.openWorkflow(workflows.drag);
	await editor.executeAndWait('the drag workflow to run');
	await editor.canvasNode(DRAG_UNLOCK).dblclick();
	const dropped = await editor.dragFieldOnto('prospect_id', 'contactIdField');
	if (dropped !== 'prospect_id')
		throw new Error(`dropping prospect_id on Contact ID Field gave "${dropped}"`);
	await linger(journey);
	await visible('[data-test-id="node-execute-button"]').click();
	const table = await editor.readOutputTable();
	const emailColumn = table.columns.indexOf('email');
	if (!/^2 items/.test(table.count) || !table.rows.every((row) => /@/.test(row[emailColumn] ?? '')))
		throw new Error(`after the drop the node gave ${table.count}: ${JSON.stringify(table.rows)}`);
	await linger(journey);
	await shot('editor-drag-field.png');
	passed(
		`prospect_id dragged onto Contact ID Field drops as "${dropped}"; the node then unlocks ${table.count}`,
	);
	await page.keyboard.press('Escape');
}

async function theOtherExamples() {
	await editor.openWorkflow(workflows.alert);
	await waitFor(
		() =>
			[...document.querySelectorAll('[data-test-id="canvas-node"]')].some((node) =>
				/On Job Change/.test(node.textContent),
			),
		{ what: 'the trigger subtitle "On Job Change"' },
	);
	await shot('editor-job-change-alert.png');
	passed('the job change alert shows its trigger as "On Job Change"');
	await theTriggerHelpNamesItsButtons();
	await editor.openWorkflow(workflows.agent);
	await shot('editor-ai-agent-tools.png');
	passed('the AI agent example opens');
}

/**
 * The webhook trigger's help (its triggerPanel texts, as this n8n serves them) quotes only buttons its panel
 * shows on this line: it once named "Listen for test event" and Publish, which one line or both lack (issue 44,
 * finding 5). Opens the job change alert's trigger; leaves its panel closed.
 */
async function theTriggerHelpNamesItsButtons() {
	const texts = await page.evaluate(async (type) => {
		const types = await (await fetch('/types/nodes.json')).json();
		const panel = types.find((each) => each.name === type)?.triggerPanel ?? {};
		return [
			panel.header,
			panel.executionsHelp?.inactive,
			panel.executionsHelp?.active,
			panel.activationHint,
		];
	}, 'n8n-nodes-contact-data.contactDataTrigger');
	const quoted = texts.flatMap((text) =>
		[...(text ?? '').matchAll(/["“]([^"”]+)["”]/g)].map((m) => m[1]),
	);
	if (quoted.length === 0)
		throw new Error(`the trigger's help quotes no button: ${JSON.stringify(texts)}`);
	await editor.canvasNode(ALERT_TRIGGER).dblclick();
	for (const name of new Set(quoted)) {
		const exactly = new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
		await visible('button', exactly)
			.waitFor({ timeout: 15_000 })
			.catch(() => {
				throw new Error(`the trigger's help names "${name}", which its panel does not show`);
			});
	}
	passed(
		`the trigger's help names the buttons its panel shows: ${[...new Set(quoted)].map((name) => `"${name}"`).join(', ')}`,
	);
	await editor.closeNodeView();
}

/**
 * "Contact Data" in the nodes panel: the action node and its trigger as one entry, described by the trigger's
 * text, and the poll trigger by its name less "Trigger" (docs/node.md). Leaves the entry's actions open.
 */
async function theNodesPanel() {
	await visible('[data-test-id="node-creator-search-bar"]').fill('Contact Data');
	const names = await waitFor(
		() => {
			const found = [...document.querySelectorAll('[data-test-id="node-creator-item-name"]')].map(
				(name) => name.innerText.trim(),
			);
			return found.includes('Contact Data') ? found : null;
		},
		{ what: 'the Contact Data entries of the nodes panel' },
	);
	if (!names.includes('Contact Data') || !names.includes('Contact Data Job Change Check'))
		throw new Error(`the entries: ${JSON.stringify(names)}`);
	await shot('nodes-panel-search.png');
	passed(`the nodes panel lists ${names.map((name) => `"${name}"`).join(', ')}`);
	await visible('[data-test-id="node-creator-item-name"]', /^Contact Data$/).click();
	await visible('[data-test-id="node-creator-item-name"]', /^Unlock/).waitFor();
	const panel = await visible('[data-test-id="node-creator"]').innerText();
	const described = panel.match(/^Search, unlock and enrich .*$/m)?.[0];
	if (
		!described ||
		!/start workflows on job changes/.test(described) ||
		!/Actions \(12\)/.test(panel)
	)
		throw new Error(`the Contact Data entry: ${panel.slice(0, 500)}`);
	await shot('nodes-panel-contact-data.png');
	passed(`the Contact Data entry is described as "${described}", above its 12 actions`);
}

/** A new workflow, its trigger, then Contact Data's Unlock action: the name n8n gives the node on the canvas. */
async function aNewUnlockNode() {
	await page.goto(`${baseUrl}/workflow/new`);
	await visible('[data-test-id="canvas-add-button"]').click();
	await visible('[data-test-id="node-creator-search-bar"]').fill('manual');
	await visible('[data-test-id="node-creator-item-name"]', /manual/i).click();
	await editor.closeNodeView();
	await visible('[data-test-id="canvas-handle-plus"]').click();
	await theNodesPanel();
	await visible('[data-test-id="node-creator-item-name"]', /^Unlock/).click();
	await editor.closeNodeView();
	// n8n 2.41.1 at times marks a new node with issues for a moment, until its credential is set: a new user
	// sees the node settle without any, and so must its picture (one run pictured the mark).
	await waitFor(
		() => {
			const added = [...document.querySelectorAll('[data-test-id="canvas-node"]')].find((each) =>
				/^Unlock/.test(each.getAttribute('data-node-name') ?? ''),
			);
			return added && !added.querySelector('[data-test-id="node-issues"]');
		},
		{ timeout: 20_000, what: 'the new Unlock node without issues' },
	);
	const node = (await editor.canvasState()).find((each) => /^Unlock/.test(each.name));
	if (!node) throw new Error('no Unlock node on the canvas');
	await linger(journey);
	await shot('canvas-new-unlock-node.png');
	const subtitle = node.text.split('\n').at(-1);
	passed(
		`a new Unlock node is named "${node.name}" (${node.name.length} characters), subtitle "${subtitle}"`,
	);
}

const STEPS = [
	['sign in', signIn],
	...(video ? DEMO_OPENING : []),
	['execute the example', executeTheExample],
	['read the Unlock output', readTheUnlockOutput],
	['the Search filters', theSearchFilters],
	['an error as displayed', anErrorAsDisplayed],
	['drag a field', dragAField],
	video ? ['the trigger fires', demoTriggerFires] : ['the other examples', theOtherExamples],
	['a new Unlock node', aNewUnlockNode],
];

let step = 'start';
try {
	for (const [name, run] of STEPS) {
		step = name;
		await run(journey);
	}
} catch (error) {
	await shot('failure.png').catch(() => {});
	console.error(`  fail  browser: ${step}: ${error.message}`);
	process.exitCode = 1;
} finally {
	await context.close();
	if (video) await saveVideo(journey);
	await browser.close();
}
