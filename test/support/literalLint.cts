/**
 * n8n's lint on what n8n loads: descriptions written out as TypeScript literals, with unquoted
 * keys (the rules match identifier keys only), into a scratch root's `nodes/` and `credentials/`
 * (the rules for nodes apply only under `nodes/`), linted by the ESLint configuration
 * `n8n-node lint` uses, in one ESLint run for all files (building an ESLint costs seconds). The
 * scratch root holds the package's package.json, icons and node_modules, which some rules read.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from './files.cjs';

/** Code written as it is, where a literal would break a rule (`NodeConnectionTypes.Main`). */
export class Code {
	constructor(readonly text: string) {}
}

/** A value as a TypeScript literal; a key stays unquoted when it is an identifier. */
export function literalOf(value: unknown, indent = ''): string {
	const inner = `${indent}\t`;
	if (value instanceof Code) return value.text;
	if (Array.isArray(value)) {
		if (value.length === 0) return '[]';
		return `[\n${value.map((entry) => `${inner}${literalOf(entry, inner)},`).join('\n')}\n${indent}]`;
	}
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
		if (entries.length === 0) return '{}';
		const lines = entries.map(([key, entry]) => {
			const written = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
			return `${inner}${written}: ${literalOf(entry, inner)},`;
		});
		return `{\n${lines.join('\n')}\n${indent}}`;
	}
	return JSON.stringify(value);
}

/** A finding of the lint, in a file given by its path from the scratch root. */
export interface Finding {
	file: string;
	ruleId: string | null;
	line: number;
	message: string;
	/** The line the finding points at. */
	text: string;
}

/** Lints these files (path from the scratch root: source) and returns what the rules find. */
export async function lintLiterals(files: Record<string, string>): Promise<Finding[]> {
	const root = mkdtempSync(path.join(os.tmpdir(), 'literal-lint-'));
	try {
		cpSync(path.join(REPO_ROOT, 'package.json'), path.join(root, 'package.json'));
		cpSync(path.join(REPO_ROOT, 'icons'), path.join(root, 'icons'), { recursive: true });
		symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
		const written = Object.entries(files).map(([file, source]) => {
			const at = path.join(root, file);
			mkdirSync(path.dirname(at), { recursive: true });
			writeFileSync(at, source);
			return { file, at, lines: source.split('\n') };
		});
		const runner = path.join(REPO_ROOT, 'test', 'support', 'literalLint.mjs');
		const { stdout } = await promisify(execFile)(
			process.execPath,
			[runner, root, ...written.map(({ at }) => at)],
			// Under NODE_ENV=test (jest's), n8n's rules take every file for a test fixture.
			{ cwd: REPO_ROOT, env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 1 << 26 },
		);
		const found = JSON.parse(stdout) as Array<
			Omit<Finding, 'file' | 'text'> & { filePath: string }
		>;
		return found.map(({ filePath, ...finding }) => {
			const { file, lines } = written.find(({ at }) => at === filePath)!;
			return { file, ...finding, text: (lines[finding.line - 1] ?? '').trim() };
		});
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}
