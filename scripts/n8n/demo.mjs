// What the browser journey (journey.mjs) adds when it records a demo video (JOURNEY_VIDEO, `npm run demo:video`):
// the single take n8n's reviewers ask of a community package, on the sandbox. The package is shown installed in
// the nodes panel and its credential test passing; the journey's own steps run the main operations; the job
// change alert, published beforehand, fires on a sandbox event (scripts/sandbox-event.mjs, as
// `npm run sandbox:event`) and its execution is shown.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** In a demo video, a pause on what was just shown, so a viewer can read it; nothing otherwise. */
export async function linger({ page, video }, ms = 1800) {
	if (video) await page.waitForTimeout(ms);
}

async function packageInstalled(journey) {
	const { page, editor, baseUrl, passed } = journey;
	await page.goto(`${baseUrl}/workflow/new`);
	await editor.visible('[data-test-id="canvas-add-button"]').click();
	await editor.visible('[data-test-id="node-creator-search-bar"]').fill('Contact Data');
	await editor.visible('[data-test-id="node-creator-item-name"]', /^Contact Data/);
	await linger(journey, 3000);
	passed('the nodes panel lists the installed Contact Data nodes');
	await page.keyboard.press('Escape');
}

async function credentialTestPasses(journey) {
	const { page, editor, baseUrl, passed } = journey;
	await page.goto(`${baseUrl}/home/credentials`);
	await editor.visible('[data-test-id="resources-list-item"]', 'Contact Data sandbox').click();
	const success = '[data-test-id="credentials-config-container-test-success"]';
	await editor.visible(success).waitFor();
	await editor.visible('button', /^Retry$/).click();
	await editor.visible(success).waitFor();
	await linger(journey, 3000);
	await journey.shot('demo-credential-test.png');
	passed('the credential test passes in the credential dialog');
	await page.keyboard.press('Escape');
	// The journey goes on from the workflow list, where signing in lands.
	await page.goto(`${baseUrl}/home/workflows`);
}

export const DEMO_OPENING = [
	['the package is installed', packageInstalled],
	['the credential test passes', credentialTestPasses],
];

/** A job change at the sandbox runs the published alert: its execution is shown. */
export async function demoTriggerFires(journey) {
	const { editor, workflows, passed } = journey;
	await editor.openWorkflow(workflows.alert);
	await linger(journey);
	const { stdout } = await promisify(execFile)(process.execPath, [
		fileURLToPath(new URL('../sandbox-event.mjs', import.meta.url)),
		'job_change',
	]);
	await editor.visible('[data-test-id="radio-button-executions"]').click();
	await editor
		.visible(
			'[data-test-id="current-executions-list"] [data-test-id^="execution-details-"]',
			'Succeeded',
		)
		.waitFor({ timeout: 90_000 });
	await linger(journey, 3000);
	await journey.shot('demo-trigger-fired.png');
	passed(`the job change alert fired and succeeded: ${stdout.split('\n')[0]}`);
}

/** Keeps the recording under a plain name once the browser context has closed. */
export async function saveVideo({ page, video, passed }) {
	const recording = page.video();
	if (!recording) return;
	const file = join(video, 'contact-data-demo.webm');
	await recording.saveAs(file);
	await recording.delete();
	passed(`demo video: ${file}`);
}
