# Sourced, never run. n8n_offline_env <user folder> <port> [runner broker port]: the settings under which
# n8n listens on loopback only and makes no outside call (no telemetry, version checks, templates, banners,
# license renewal, package registry or AI services). Verified on n8n 2.41.1 and 1.123.81 with a DNS-lookup log.
n8n_offline_env() {
  export N8N_USER_FOLDER="$1"
  export N8N_PORT="$2"
  export N8N_RUNNERS_BROKER_PORT="${3:-$((N8N_PORT + 1))}"
  export N8N_LISTEN_ADDRESS=127.0.0.1
  export N8N_HOST=127.0.0.1
  export N8N_PROTOCOL=http
  # The URL the Contact Data Trigger registers with the service; the sandbox accepts http:// on loopback.
  export N8N_WEBHOOK_URL="http://127.0.0.1:$N8N_PORT/"
  export N8N_RUNNERS_BROKER_LISTEN_ADDRESS=127.0.0.1
  export N8N_DIAGNOSTICS_ENABLED=false
  export N8N_DIAGNOSTICS_CONFIG_FRONTEND=
  export N8N_DIAGNOSTICS_CONFIG_BACKEND=
  export N8N_VERSION_NOTIFICATIONS_ENABLED=false
  export N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED=false
  export N8N_TEMPLATES_ENABLED=false
  export N8N_PERSONALIZATION_ENABLED=false
  export N8N_HIRING_BANNER_ENABLED=false
  export N8N_DYNAMIC_BANNERS_ENABLED=false
  export N8N_AI_ENABLED=false
  export N8N_VERIFIED_PACKAGES_ENABLED=false
  export N8N_REINSTALL_MISSING_PACKAGES=false
  export N8N_LICENSE_AUTO_RENEW_ENABLED=false
  # 2.x's MCP registry module calls out, and its instance-ai module sends "/" (where signing in from the
  # playground's URL lands) to its Assistant page instead of Overview and the examples; 1.x has neither module
  # and refuses to start if one is named.
  if [ "$N8N_LINE" = 2.x ]; then export N8N_DISABLED_MODULES=mcp-registry,instance-ai; else unset N8N_DISABLED_MODULES; fi
  export EXTERNAL_FRONTEND_HOOKS_URLS=
  export SCARF_ANALYTICS=false
  export N8N_SECURE_COOKIE=false
  export N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=true
  export N8N_SSRF_PROTECTION_ENABLED=false   # the sandbox is on 127.0.0.1
  # The one folder workflows may read and write files in (exports land here).
  export N8N_FILES_DIR="$1/files"
  export N8N_RESTRICT_FILE_ACCESS_TO="$N8N_FILES_DIR"
  export DB_SQLITE_POOL_SIZE=2
  export N8N_LOG_LEVEL="${N8N_LOG_LEVEL:-info}"
  # Node options for n8n's own processes only: isolated-vm (n8n's expression engine) needs this flag on
  # Node 20+, or it may crash; N8N_EXTRA_NODE_OPTIONS adds to it.
  N8N_NODE_OPTIONS="--no-node-snapshot${N8N_EXTRA_NODE_OPTIONS:+ $N8N_EXTRA_NODE_OPTIONS}"
}
