/**
 * n8n keeps binary data in memory unless its BinaryDataService is initialised with a storage mode.
 * A real n8n instance does that at start (filesystem mode by default); the bench does it the same
 * way, so a node that hands `prepareBinaryData` a stream writes it to disk as n8n would.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BinaryDataService } from 'n8n-core';

interface Container {
	get<T>(type: new (...args: never[]) => T): T;
}

/**
 * The dependency container n8n-core itself uses: its own copy of @n8n/di, loaded as n8n-core loads it
 * (a plain import would take whichever copy the package's node_modules happens to hoist).
 */
function n8nContainer(): Container {
	const requireAsN8nCore = createRequire(require.resolve('n8n-core'));
	return (requireAsN8nCore('@n8n/di') as { Container: Container }).Container;
}

export async function useFilesystemBinaryData(storagePath: string): Promise<void> {
	mkdirSync(storagePath, { recursive: true });
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	process.env.N8N_BINARY_DATA_STORAGE_PATH = storagePath;
	await n8nContainer().get(BinaryDataService).init();
}
