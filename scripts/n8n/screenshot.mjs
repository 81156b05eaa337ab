// Takes the editor screenshots in docs/images/ from a running n8n (scripts/n8n/screenshot.sh starts one).
// Drives Debian's Chromium with playwright-core; both live outside the project (see screenshot.sh).
// Usage: node screenshot.mjs <playwright-core dir> <n8n base URL> <email> <password> <shots JSON>
//   shots JSON: [{"workflowId": "…", "file": "docs/images/x.png", "openNode": "Node name" | null}]
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [playwrightDir, baseUrl, email, password, shotsJson] = process.argv.slice(2);
const { chromium } = createRequire(join(playwrightDir, 'package.json'))('playwright-core');
const shots = JSON.parse(shotsJson);

// A new, empty profile each time (Playwright passes it as --user-data-dir).
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'chromium-')), {
	executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
	args: [
		'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync',
	],
	viewport: { width: 1440, height: 810 },
});
try {
	const page = await context.newPage();
	// Log in through the sign-in form, as a person would.
	await page.goto(`${baseUrl}/signin`);
	await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(email);
	await page.locator('input[type="password"]').first().fill(password);
	await page.locator('button[type="submit"], [data-test-id="form-submit-button"]').first().click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });

	for (const shot of shots) {
		await page.goto(`${baseUrl}/workflow/${shot.workflowId}`);
		await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
		await page.keyboard.press('Escape');
		await page.waitForTimeout(1500); // let the canvas fit the view and the icons load
		if (shot.openNode) {
			await page.locator(`[data-test-id="canvas-node"][data-node-name="${shot.openNode}"]`).dblclick();
			await page.locator('[data-test-id="ndv"]').first().waitFor({ timeout: 30_000 });
			await page.waitForTimeout(1000);
		}
		await page.screenshot({ path: shot.file });
		console.log(`saved ${shot.file}`);
	}
} finally {
	await context.close();
}
