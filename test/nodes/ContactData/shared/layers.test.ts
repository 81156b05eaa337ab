/**
 * The layers of nodes/ContactData/shared, read from each file's import lines: client < parameters <
 * items < budget < agent, and the resources above them all. A file imports only its own layer or lower
 * ones, so the wire client never depends on the editor's parameters or on the credit policy.
 */
import { importedFile, importsOf, sourceFiles } from '../../../support/sources.cjs';

const SHARED = 'nodes/ContactData/shared';
const LAYERS = ['client', 'parameters', 'items', 'budget', 'agent'];

/** The layer of a file of the node, by its folder: shared's layers in order, then everything above. */
function layerOf(file: string): number {
	const shared = new RegExp(`^${SHARED}/([^/]+)/`).exec(file);
	if (!shared) return LAYERS.length;
	const layer = LAYERS.indexOf(shared[1]);
	if (layer < 0) throw new Error(`${file} is in no known layer of ${SHARED}`);
	return layer;
}

const files = sourceFiles([SHARED]);

it('knows every file of shared by its layer, each layer holding files', () => {
	expect(files.length).toBeGreaterThan(10);
	for (const layer of LAYERS)
		expect(files.some((file) => file.startsWith(`${SHARED}/${layer}/`))).toBe(true);
	expect(files.every((file) => layerOf(file) < LAYERS.length)).toBe(true);
});

it('tells an upward import from a downward one', () => {
	expect(
		layerOf(importedFile(`${SHARED}/client/apiErrors.ts`, '../parameters/filters')),
	).toBeGreaterThan(layerOf(`${SHARED}/client/apiErrors.ts`));
	expect(layerOf(importedFile(`${SHARED}/budget/ledger.ts`, '../client/contract'))).toBe(0);
	expect(
		layerOf(importedFile(`${SHARED}/budget/ledger.ts`, '../../resources/contact/unlock')),
	).toBe(LAYERS.length);
});

it('no file of shared imports a higher layer', () => {
	const upward = files.flatMap((file) =>
		importsOf(file)
			.filter((specifier) => specifier.startsWith('.'))
			.filter((specifier) => layerOf(importedFile(file, specifier)) > layerOf(file))
			.map((specifier) => `${file} imports ${specifier}`),
	);
	expect(upward).toEqual([]);
});
