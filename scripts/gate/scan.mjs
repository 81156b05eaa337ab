// n8n's scanner (@n8n/scan-community-package) on this package, offline: its two lint legs, on the
// source (nodes/ and credentials/, every rule) and on the packed tarball (compiled .js and the published
// package.json), exactly as it runs them after fetching a release from npm. Also lists the tarball.
//   node scripts/gate/scan.mjs <package folder>     exits 1 on any error
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const packageDir = resolve(process.argv[2] ?? '.');
const work = mkdtempSync(join(tmpdir(), 'contact-data-scan-'));
try {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', work], {
			cwd: packageDir,
			encoding: 'utf8',
		}),
	);
	console.log(
		`tarball ${packed.filename}: ${packed.entryCount} files, ${packed.size} bytes packed`,
	);
	for (const file of packed.files.map((f) => f.path).sort()) console.log(`  ${file}`);
	execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);

	const legs = [
		[
			'source (nodes/, credentials/, package.json)',
			await analyzePackage(packageDir, SOURCE_FILE_PATTERNS),
		],
		[
			'tarball (compiled .js, package.json)',
			await analyzePackage(join(work, 'package'), ['**/*.js', 'package.json']),
		],
	];
	let failed = 0;
	for (const [leg, result] of legs) {
		console.log(`scanner, ${leg}: ${result.passed ? 'passed' : `FAILED (${result.message})`}`);
		if (!result.passed) {
			failed++;
			if (result.details) console.log(result.details);
		}
	}
	process.exitCode = failed ? 1 : 0;
} finally {
	rmSync(work, { recursive: true, force: true });
}
