// The committed pictures against those the browser journey of this run took (scripts/e2e.sh): the same names,
// and in each pair at most PIXELS_ALLOWED pixels that differ by more than CHANNEL_TOLERANCE in a colour
// channel. Both PNGs are decoded and compared on a canvas in headless Chromium (the journey's browser, driven by
// playwright-core), so no image library is needed. A name, a subtitle, a parameter or a notice that changed
// changes hundreds of pixels; what the journey leaves out of its pictures (pictures.mjs) changes none.
// Usage: node compare-pictures.mjs <committed folder> <taken folder> <folder for the difference pictures> [--retake]
//   CHROMIUM: the browser's executable (default /usr/bin/chromium)
// Prints one line per picture; exits non-zero when a picture differs, is missing, or is not taken any more.
// With --retake it brings the committed folder up to date instead: it replaces only the pictures that differ
// (so a retake commits no new bytes for an unchanged picture), adds new ones and removes those not taken.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

const [committedDir, takenDir, differencesDir, mode] = process.argv.slice(2);
const retake = mode === '--retake';
const CHANNEL_TOLERANCE = 40;
const PIXELS_ALLOWED = 16;

const pngs = (dir) =>
	readdirSync(dir).filter((file) => file.endsWith('.png') && file !== 'failure.png');
const committed = pngs(committedDir);
const taken = pngs(takenDir);

/** In the page: decodes two PNGs (base64), counts the pixels that differ, draws them red over the new one. */
async function compareInPage({ before, after, tolerance }) {
	const decode = async (base64) => {
		const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
		const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }), {
			colorSpaceConversion: 'none',
			premultiplyAlpha: 'none',
		});
		const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
		const context = canvas.getContext('2d');
		context.drawImage(bitmap, 0, 0);
		return { canvas, context, pixels: context.getImageData(0, 0, bitmap.width, bitmap.height) };
	};
	const [a, b] = await Promise.all([decode(before), decode(after)]);
	const { width, height } = b.pixels;
	if (a.pixels.width !== width || a.pixels.height !== height)
		return { size: `${a.pixels.width}×${a.pixels.height} → ${width}×${height}`, differing: -1 };
	const marked = new ImageData(new Uint8ClampedArray(b.pixels.data), width, height);
	let differing = 0;
	const box = { left: width, top: height, right: -1, bottom: -1 };
	for (let at = 0; at < a.pixels.data.length; at += 4) {
		let most = 0;
		for (let channel = 0; channel < 3; channel++)
			most = Math.max(most, Math.abs(a.pixels.data[at + channel] - b.pixels.data[at + channel]));
		if (most <= tolerance) {
			for (let channel = 0; channel < 3; channel++)
				marked.data[at + channel] = 155 + marked.data[at + channel] / 3;
			continue;
		}
		differing++;
		marked.data.set([230, 0, 0, 255], at);
		const x = (at / 4) % width;
		const y = Math.floor(at / 4 / width);
		Object.assign(box, {
			left: Math.min(box.left, x),
			top: Math.min(box.top, y),
			right: Math.max(box.right, x),
			bottom: Math.max(box.bottom, y),
		});
	}
	b.context.putImageData(marked, 0, 0);
	const blob = await b.canvas.convertToBlob({ type: 'image/png' });
	const bytes = new Uint8Array(await blob.arrayBuffer());
	let binary = '';
	for (let at = 0; at < bytes.length; at += 0x8000)
		binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
	return { size: `${width}×${height}`, differing, box, marked: btoa(binary) };
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
	args: ['--disable-gpu', '--disable-dev-shm-usage'],
});
let failed = 0;
try {
	const page = await browser.newPage();
	for (const name of committed.filter((file) => !taken.includes(file))) {
		failed++;
		console.log(`  differs  ${name}: committed, but the journey no longer takes it`);
		if (retake) rmSync(join(committedDir, name));
	}
	for (const name of taken.filter((file) => !committed.includes(file))) {
		failed++;
		console.log(`  differs  ${name}: taken by the journey, but not committed in ${committedDir}`);
		if (retake) copyFileSync(join(takenDir, name), join(committedDir, name));
	}
	for (const name of taken.filter((file) => committed.includes(file))) {
		const [before, after] = [committedDir, takenDir].map((dir) =>
			readFileSync(join(dir, name)).toString('base64'),
		);
		const result = await page.evaluate(compareInPage, {
			before,
			after,
			tolerance: CHANNEL_TOLERANCE,
		});
		const same = result.differing >= 0 && result.differing <= PIXELS_ALLOWED;
		if (!same) failed++;
		if (!same && retake) copyFileSync(join(takenDir, name), join(committedDir, name));
		const where =
			result.differing > 0
				? ` in x ${result.box.left}–${result.box.right}, y ${result.box.top}–${result.box.bottom}`
				: '';
		const what =
			result.differing < 0 ? `size ${result.size}` : `${result.differing} pixels differ${where}`;
		console.log(`  ${same ? 'same    ' : 'differs '} ${name}: ${what}`);
		if (result.marked && result.differing > 0) {
			mkdirSync(differencesDir, { recursive: true });
			writeFileSync(join(differencesDir, name), Buffer.from(result.marked, 'base64'));
		}
	}
} finally {
	await browser.close();
}
if (failed > 0 && retake) {
	console.log(`  ${failed} pictures retaken in ${committedDir}`);
} else if (failed > 0) {
	console.log(
		`  ${failed} pictures differ from what the nodes show now (in red: ${differencesDir})`,
	);
	console.log(`  retake them on both n8n lines: bash scripts/n8n/screenshot.sh`);
	process.exitCode = 1;
}
