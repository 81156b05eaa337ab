// Runs before each test file, before n8n-core is imported.
const os = require('node:os');
const path = require('node:path');
const fs = require('node:fs');

// n8n-core's InstanceSettings otherwise writes ~/.n8n/config with a fresh encryption key.
process.env.N8N_USER_FOLDER ??= fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-contact-data-test-'));
// The engine's error reporter logs every node error with its stack; tests assert on errors instead.
process.env.N8N_LOG_LEVEL ??= 'silent';
// The sandbox listens on 127.0.0.1: SSRF protection must not block loopback.
process.env.N8N_SSRF_PROTECTION_ENABLED = 'false';
