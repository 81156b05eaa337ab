/**
 * The playground (`npm start`) as a new user meets it (issue 44, finding 1): it prints the editor's URL, which
 * the browser journey of the end-to-end check opens to sign in, and then checks that it lands on Overview
 * listing the examples; on n8n 2.x the instance-ai module, which sent "/" to its Assistant page, is off. It says
 * that n8n is being installed only while it is.
 */
import { readRepoFile } from './support/files.cjs';

const playground = readRepoFile('scripts/playground.sh');
const lib = readRepoFile('scripts/n8n/lib.sh');

it('prints the editor URL that the browser journey opens and signs in from', () => {
	expect(lib).toContain('editor_url() { echo "http://localhost:$1"; }');
	expect(playground).toContain('n8n is running with the Contact Data nodes: $(editor_url "$PORT")');
	expect(lib).toMatch(/node "\$N8N_LIB_DIR\/journey\.mjs" \\\n\s+"\$\(editor_url "\$N8N_PORT"\)"/);
	const journey = readRepoFile('scripts/n8n/journey.mjs');
	const signIn = journey.slice(journey.indexOf('async function signIn()'));
	expect(signIn).toMatch(/^\s+await page\.goto\(baseUrl\);$/m);
	expect(signIn).toContain("if (landed !== '/home/workflows')");
});

it('switches off the instance-ai module on n8n 2.x only (1.x refuses a module it does not have)', () => {
	expect(readRepoFile('scripts/n8n/env.sh')).toContain(
		'if [ "$N8N_LINE" = 2.x ]; then export N8N_DISABLED_MODULES=mcp-registry,instance-ai; else unset N8N_DISABLED_MODULES; fi',
	);
});

it('says that n8n is being installed only while it is', () => {
	expect(playground).not.toMatch(/echo .*minutes/);
	const install = readRepoFile('scripts/n8n/install.sh');
	const finished = install.lastIndexOf('if installed; then echo "$N8N_CACHE_DIR"; exit 0; fi');
	expect(finished).toBeGreaterThan(0);
	expect(install.indexOf('about 5 minutes')).toBeGreaterThan(finished);
});
