/**
 * A module of the repository loaded afresh, with module state of its own (jest.isolateModules): how
 * another n8n process holds its own copy of the node's code.
 */
import path from 'node:path';

import { REPO_ROOT } from './files.cjs';

export function loadAfresh<T>(fromRoot: string): T {
	let loaded: T | undefined;
	jest.isolateModules(() => {
		loaded = require(path.join(REPO_ROOT, fromRoot)) as T;
	});
	return loaded!;
}
