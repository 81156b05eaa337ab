/**
 * Every n8n line the scripts can install (scripts/n8n/paths.sh) gets each check that runs a real n8n in
 * `npm test` (scripts/test.sh): the end-to-end check and the queue-mode check, each as a stage of its own.
 */
import { readRepoFile } from './support/files.cjs';

/** The lines paths.sh's `case "$N8N_LINE"` accepts, such as `2.x` and `1.x`. */
function n8nLines(): string[] {
	return [...readRepoFile('scripts/n8n/paths.sh').matchAll(/^\s+([0-9]+\.x)\) N8N_APP_SRC=/gm)].map(
		(match) => match[1],
	);
}

const stages = readRepoFile('scripts/test.sh');

it('knows both n8n lines users run', () => {
	expect(n8nLines()).toEqual(['2.x', '1.x']);
});

it.each(['e2e', 'queue'])('runs the %s check on every n8n line, as a stage of its own', (check) => {
	for (const line of n8nLines()) {
		expect(stages).toContain(
			`stage ${check}-${line} env N8N_LINE=${line} npm run --silent test:${check}\n`,
		);
	}
});
