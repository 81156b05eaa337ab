// Copies what tsc does not emit (icons, codex files) next to the compiled nodes in dist/.
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = process.cwd();
const copy = (from) => {
	const to = join(root, 'dist', relative(root, from));
	mkdirSync(dirname(to), { recursive: true });
	cpSync(from, to);
};
const walk = (dir, keep) => {
	if (!existsSync(dir)) return;
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) walk(path, keep);
		else if (keep(name)) copy(path);
	}
};
walk(join(root, 'icons'), (name) => name.endsWith('.svg'));
walk(join(root, 'nodes'), (name) => name.endsWith('.svg') || name.endsWith('.node.json'));
