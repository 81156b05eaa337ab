/**
 * No import cycle in nodes/, type imports included, read from each file's import lines: two files
 * that import each other are one job split in two, or one of them does two jobs, and a cycle of
 * values makes what a file sees at load time depend on which file n8n loads first.
 */
import { importedFile, importsInText, importsOf, sourceFiles } from '../support/sources.cjs';

type Graph = Map<string, string[]>;

/** Each file of the folders with the files it imports (relative imports, the only ones a cycle can use). */
function importGraph(folders: string[]): Graph {
	return new Map(
		sourceFiles(folders).map((file) => [
			file,
			importsOf(file)
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => importedFile(file, specifier)),
		]),
	);
}

/** Every cycle a depth-first walk closes, each as the files around it (the first one again at the end). */
function cyclesOf(graph: Graph): string[][] {
	const cycles: string[][] = [];
	const done = new Set<string>();
	const path: string[] = [];
	const walk = (file: string) => {
		const open = path.indexOf(file);
		if (open >= 0) {
			cycles.push([...path.slice(open), file]);
			return;
		}
		if (done.has(file)) return;
		path.push(file);
		for (const target of graph.get(file) ?? []) walk(target);
		path.pop();
		done.add(file);
	};
	for (const file of graph.keys()) walk(file);
	return cycles;
}

const graph = importGraph(['nodes']);

it('reads type imports, re-exports and inline imports as imports', () => {
	const text = [
		"import type { A } from './a';",
		"export { B } from './b';",
		"type C = import('./c').C;",
		"const d = () => import('./d');",
	].join('\n');
	expect(importsInText(text)).toEqual(['./a', './b', './c', './d']);
});

it('finds a cycle of three files, and none where the imports only go one way', () => {
	const cycle: Graph = new Map([
		['a', ['b']],
		['b', ['c']],
		['c', ['a']],
		['d', ['a']],
	]);
	expect(cyclesOf(cycle)).toEqual([['a', 'b', 'c', 'a']]);
	const oneWay: Graph = new Map([
		['a', ['b', 'c']],
		['b', ['c']],
		['c', []],
	]);
	expect(cyclesOf(oneWay)).toEqual([]);
});

it('resolves every relative import of nodes/ to a TypeScript file there', () => {
	const imports = [...graph.values()].flat();
	expect(graph.size).toBeGreaterThan(50);
	expect(imports.length).toBeGreaterThan(graph.size);
	expect(imports.filter((target) => !graph.has(target))).toEqual([]);
});

it('has no import cycle in nodes/', () => {
	expect(cyclesOf(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
});
