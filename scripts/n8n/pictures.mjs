// How the browser journey takes a picture that is the same from run to run, so that the committed pictures
// can be compared with those a run takes (compare-pictures.mjs): what comes and goes with timing is left out
// (toasts, tooltips, the text caret, animations), the page has finished loading what it asked for, and the
// mouse rests where it hovers nothing.

import { writeFileSync } from 'node:fs';

// Toasts stay for a time that depends on the machine's speed; a tooltip follows the last mouse move; the chat
// panel's session id is new in every run (hidden, not masked: a mask follows the id's width).
const STEADY_STYLE =
	'.el-notification, .el-message, [role="tooltip"], [data-test-id="chat-session-id"] { visibility: hidden !important; }';

/** A picture once two taken in a row are the same (late renders, such as edges recoloured after a run). */
async function steadyPicture(page) {
	const options = {
		animations: 'disabled',
		caret: 'hide',
		style: STEADY_STYLE,
	};
	let last = await page.screenshot(options);
	for (let attempt = 0; attempt < 10; attempt++) {
		await page.waitForTimeout(400);
		const next = await page.screenshot(options);
		if (next.equals(last)) return next;
		last = next;
	}
	return last;
}

/** Waits for the page to settle, then saves a picture of it at `path`. */
export async function takePicture(page, path) {
	await page.mouse.move(1, 1);
	// A clicked button keeps its focus ring for as long as nothing else is focused.
	await page.evaluate(() => document.activeElement?.blur?.());
	// n8n 1.123.81's node view is 35 px wider than the window, and focus at times scrolls it sideways (a CI
	// run pictured the whole view 35 px to the left): every picture is taken scrolled to the left edge.
	await page.evaluate(() => {
		for (const element of document.querySelectorAll('*'))
			if (element.scrollLeft > 0) element.scrollLeft = 0;
	});
	// n8n keeps a push connection open; only the other requests are waited for, and not forever.
	await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
	await page.waitForFunction(() => !/Loading fields/.test(document.body.innerText), undefined, {
		timeout: 10_000,
	});
	await page.evaluate(
		() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
	);
	writeFileSync(path, await steadyPicture(page));
}
