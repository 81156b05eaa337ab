/**
 * n8n-core reads its settings when first loaded: this module is imported before it in every
 * bench process that runs the engine.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// InstanceSettings would otherwise write ~/.n8n/config with a fresh encryption key.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-contact-data-bench-'));
process.env.N8N_LOG_LEVEL ??= 'silent';
// The sandbox listens on 127.0.0.1: SSRF protection must not block loopback.
process.env.N8N_SSRF_PROTECTION_ENABLED = 'false';
