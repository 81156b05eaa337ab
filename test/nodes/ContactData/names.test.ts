/**
 * One name, one thing: a name shared/ exports is declared nowhere else in the nodes or the
 * credential (a copy of `headerValue` or of a contract type would read the same and differ), and
 * no type is declared in two files. Operations may each have their own `description`, `execute`
 * and local steps: the router reaches them by module, not by name.
 */
import { declarationsOf, sourceFiles, type Declaration } from '../../support/sources.cjs';

type Declared = Declaration & { file: string };

const SHARED = 'nodes/ContactData/shared/';
const declared: Declared[] = sourceFiles(['nodes/ContactData', 'credentials']).flatMap((file) =>
	declarationsOf(file).map((declaration) => ({ ...declaration, file })),
);

/** `name: file, file` for each name declared in more than one file among `found`. */
function twice(found: Declared[]): string[] {
	const files = new Map<string, Set<string>>();
	for (const { name, file } of found) files.set(name, (files.get(name) ?? new Set()).add(file));
	return [...files]
		.filter(([, where]) => where.size > 1)
		.map(([name, where]) => `${name}: ${[...where].join(', ')}`);
}

it('reads the declarations of the nodes, shared exports and types among them', () => {
	expect(declared.some(({ file, exported }) => file.startsWith(SHARED) && exported)).toBe(true);
	expect(declared.some(({ isType }) => isType)).toBe(true);
	expect(
		twice([
			{ name: 'a', file: 'x.ts', exported: true, isType: true },
			{ name: 'a', file: 'y.ts', exported: false, isType: true },
		]),
	).toEqual(['a: x.ts, y.ts']);
});

it('a name shared/ exports is declared in no other file', () => {
	const sharedNames = new Set(
		declared
			.filter(({ file, exported }) => file.startsWith(SHARED) && exported)
			.map(({ name }) => name),
	);
	expect(twice(declared.filter(({ name }) => sharedNames.has(name)))).toEqual([]);
});

it('no type, interface or class is declared in two files', () => {
	expect(twice(declared.filter(({ isType }) => isType))).toEqual([]);
});
