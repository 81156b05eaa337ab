/** Reading the repository's files and running its commands, for tests (which import no `node:` module). */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A file of the repository, by its path from the root. */
export function readRepoFile(file: string): string {
	return readFileSync(path.join(REPO_ROOT, file), 'utf8');
}

/** The names of the entries in a folder of the repository, by its path from the root. */
export function repoFolderEntries(folder: string): string[] {
	return readdirSync(path.join(REPO_ROOT, folder));
}

export function readRepoJson<T = Record<string, unknown>>(file: string): T {
	return JSON.parse(readRepoFile(file)) as T;
}

/** The paths `npm pack --dry-run` would put in the tarball, sorted. */
export function packedFiles(): string[] {
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
	});
	const [packed] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
	return packed.files.map((file) => file.path).sort();
}
