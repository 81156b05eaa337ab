/**
 * The test tiers as jest's configs define them (plain JavaScript, which test files cannot import):
 * the fast tier's list, its resolver and the guard it puts in place of what it refuses.
 */
import path from 'node:path';

import { REPO_ROOT } from './files.cjs';

type Resolver = (
	request: string,
	options: { basedir: string; defaultResolver: Resolver },
) => string;

export const { FAST_TESTS } = require('../fastTier.js') as { FAST_TESTS: string[] };

const resolveFast = require('../resolve-fast.js') as Resolver;

/** Where the fast tier sends `request` imported by `fromFile` (paths from the repository root). */
export function resolvedInFastTier(fromFile: string, request: string): string {
	const basedir = path.dirname(path.join(REPO_ROOT, fromFile));
	const defaultResolver: Resolver = (name, options) =>
		require.resolve(name, { paths: [options.basedir] });
	const resolved = resolveFast(request, { basedir, defaultResolver });
	return path.relative(REPO_ROOT, resolved).split(path.sep).join('/');
}

/** The module a test gets in the fast tier for what it refuses. */
export function fastTierGuard(): Record<string, unknown> {
	return require('../fastTierGuard.js') as Record<string, unknown>;
}
