/**
 * Files and functions small enough to read whole, as Prettier formats them: no file of the package
 * over 300 lines, no function body over 40.
 */
import { readRepoFile } from './support/files.cjs';
import { functionSpansOf, sourceFiles } from './support/sources.cjs';

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 40;

interface Offender {
	/** `file` or `file:function`. */
	name: string;
	detail: string;
}

function offenders(): Offender[] {
	return sourceFiles(['nodes', 'credentials']).flatMap((file) => {
		const lines = readRepoFile(file).trimEnd().split('\n').length;
		const longFile = lines > MAX_FILE_LINES ? [{ name: file, detail: `${lines} lines` }] : [];
		const longFunctions = functionSpansOf(file)
			.filter((span) => span.lines > MAX_FUNCTION_LINES)
			.map((span) => ({
				name: `${file}:${span.name}`,
				detail: `body from line ${span.line}, ${span.lines} lines`,
			}));
		return [...longFile, ...longFunctions];
	});
}

it('has no file over 300 lines and no function over 40', () => {
	const shown = offenders().map((offender) => `${offender.name}: ${offender.detail}`);
	expect(shown).toEqual([]);
});
