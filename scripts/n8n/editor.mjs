// What the browser journey (journey.mjs) does in n8n's editor, by the test ids n8n's own end-to-end tests use.
// The same on n8n 2.41.1 and 1.123.81.

export class Editor {
	constructor(page, baseUrl) {
		this.page = page;
		this.baseUrl = baseUrl;
	}

	/** Polls `fn` in the page until it returns a truthy value; returns that value. */
	async waitFor(fn, { timeout = 60_000, what = String(fn), arg } = {}) {
		const handle = await this.page
			.waitForFunction(fn, arg, { timeout, polling: 250 })
			.catch((error) => {
				throw new Error(
					`timed out after ${timeout / 1000} s waiting for ${what} (${error.message.split('\n')[0]})`,
				);
			});
		return await handle.jsonValue();
	}

	/** The first visible element matching `selector` (and containing `text`, when given). */
	visible(selector, text) {
		return this.page
			.locator(selector)
			.filter({ visible: true, ...(text ? { hasText: text } : {}) })
			.first();
	}

	canvasNode(name) {
		return this.visible(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	}

	/** The canvas nodes and whether each shows the success mark (disabled nodes run nothing and show none). */
	canvasState() {
		return this.page.evaluate(() =>
			[...document.querySelectorAll('[data-test-id="canvas-node"]')].map((node) => ({
				name: node.getAttribute('data-node-name'),
				text: node.innerText,
				disabled: /\(Deactivated\)/.test(node.textContent),
				success: Boolean(node.querySelector('[data-test-id="canvas-node-status-success"]')),
			})),
		);
	}

	/** The output panel's table: its column names and the cells of its first rows. */
	outputTable() {
		return this.page.evaluate(() => {
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
	}

	/** Shows the output panel as a table and reads it once it has rows. */
	async readOutputTable() {
		await this.visible('[data-test-id="output-panel"] [data-test-id="radio-button-table"]').click({
			timeout: 30_000,
		});
		await this.waitFor(
			() => Boolean(document.querySelector('[data-test-id="output-panel"] table tbody tr')),
			{ timeout: 30_000, what: 'the output table' },
		);
		return await this.outputTable();
	}

	async openWorkflow(id) {
		await this.page.goto(`${this.baseUrl}/workflow/${id}`);
		await this.waitFor(() => document.querySelectorAll('[data-test-id="canvas-node"]').length > 0, {
			what: 'the canvas',
		});
	}

	async executeAndWait(what) {
		await this.visible('[data-test-id="execute-workflow-button"]').click();
		return await this.waitFor(
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

	/**
	 * Drags a field of the input panel (its name, as the schema view shows it) onto a parameter and returns the
	 * parameter's value after the drop. A drag the editor did not register (a loaded machine) is made again, up
	 * to 3 times; whatever a registered drop inserts is returned as it is.
	 */
	async dragFieldOnto(field, parameter) {
		const before = await this.parameterValue(parameter);
		for (let attempt = 1; attempt <= 3; attempt++) {
			await this.dragOnce(field, parameter);
			for (let poll = 0; poll < 20; poll++) {
				const value = await this.parameterValue(parameter);
				if (value !== before) return value;
				await this.page.waitForTimeout(250);
			}
		}
		return before;
	}

	/** One drag with the mouse, as a person makes it: n8n's mapping listens to mouse moves, not HTML drag events. */
	async dragOnce(field, parameter) {
		const source = this.visible(
			'[data-test-id="ndv-input-panel"] [data-test-id="run-data-schema-item"]',
			field,
		)
			.getByText(field, { exact: true })
			.first();
		const target = this.visible(`[data-test-id="parameter-input-${parameter}"]`);
		await source.hover();
		const from = await source.boundingBox();
		const to = await target.boundingBox();
		if (!from || !to)
			throw new Error(`cannot see the field ${field} or the parameter ${parameter}`);
		const { mouse } = this.page;
		await mouse.down();
		await mouse.move(from.x + from.width / 2 + 40, from.y + from.height / 2 + 10, { steps: 5 });
		await mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 20 });
		await mouse.move(to.x + to.width / 2 + 5, to.y + to.height / 2, { steps: 3 });
		await this.page.waitForTimeout(300);
		await mouse.up();
	}

	/** Closes the node's panel when one is open (adding a node opens it). */
	async closeNodeView() {
		// 2.x closes the node panel with its close button, 1.x with "Back to canvas".
		const closers = '[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]';
		const close = this.page.locator(closers).filter({ visible: true });
		await close
			.first()
			.waitFor({ timeout: 5_000 })
			.then(() => close.first().click())
			.catch(() => {});
		await this.waitFor(
			(selector) => ![...document.querySelectorAll(selector)].some((each) => each.offsetParent),
			{
				arg: closers,
				timeout: 10_000,
				what: 'the node panel to close',
			},
		);
	}

	/** A parameter's value as its input shows it (a fixed value, or the text of an expression). */
	parameterValue(parameter) {
		return this.visible(`[data-test-id="parameter-input-${parameter}"]`).evaluate(
			(element) => element.querySelector('input, textarea')?.value ?? element.innerText.trim(),
		);
	}
}
