/**
 * n8n keeps binary data in memory unless its BinaryDataService is initialised with a storage mode.
 * A real n8n instance does that at start (filesystem mode by default); the bench does it the same
 * way, so a node that hands `prepareBinaryData` a stream writes it to disk as n8n would.
 */
import { mkdirSync } from 'node:fs';
import { BinaryDataService } from 'n8n-core';

/** The dependency container n8n-core itself uses (its own copy of @n8n/di). */
function n8nContainer(): { get<T>(type: new (...args: never[]) => T): T } {
	const diPath = require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] });
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(diPath) as { Container: { get<T>(type: new (...args: never[]) => T): T } }).Container;
}

export async function useFilesystemBinaryData(storagePath: string): Promise<void> {
	mkdirSync(storagePath, { recursive: true });
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	process.env.N8N_BINARY_DATA_STORAGE_PATH = storagePath;
	await n8nContainer().get(BinaryDataService).init();
}
