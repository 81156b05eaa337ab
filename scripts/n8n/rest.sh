# Sourced, never run. Talking to a running n8n (N8N_BASE set by start_n8n): the editor's REST API as the
# owner (cookie in N8N_COOKIES) and the public API (key in N8N_API_KEY). Each prints the response body and
# fails, printing the body, on a non-2xx answer.

# n8n_rest <method> <path under /rest> [JSON body]
n8n_rest() {
  curl -sS --fail-with-body -b "$N8N_COOKIES" -c "$N8N_COOKIES" -X "$1" \
    -H 'content-type: application/json' ${3:+--data-binary "$3"} "$N8N_BASE/rest$2"
}

# n8n_api <method> <path under /api/v1> [JSON body]
n8n_api() {
  curl -sS --fail-with-body -H "X-N8N-API-KEY: $N8N_API_KEY" -X "$1" \
    -H 'content-type: application/json' ${3:+--data-binary "$3"} "$N8N_BASE/api/v1$2"
}

# n8n_setup_owner <email> <password>: creates the owner account, logs in and creates a public API key
# with every scope (exported as N8N_API_KEY).
n8n_setup_owner() {
  local email="$1" password="$2" scopes
  N8N_COOKIES="${N8N_COOKIES:-$N8N_USER_FOLDER/cookies.txt}"
  n8n_rest POST /owner/setup "$(jq -nc --arg e "$email" --arg p "$password" \
    '{email: $e, password: $p, firstName: "Playground", lastName: "Owner"}')" >/dev/null || return 1
  n8n_rest POST /login "$(jq -nc --arg e "$email" --arg p "$password" \
    '{emailOrLdapLoginId: $e, password: $p}')" >/dev/null || return 1
  scopes="$(n8n_rest GET /api-keys/scopes | jq -c .data)" || return 1
  N8N_API_KEY="$(n8n_rest POST /api-keys "$(jq -nc --argjson s "$scopes" \
    '{label: "contact-data scripts", scopes: $s, expiresAt: null}')" | jq -er .data.rawApiKey)" || return 1
  export N8N_API_KEY N8N_COOKIES
}

# n8n_create_credential <name> <sandbox URL> <API key>: a contactDataApi credential; prints its id.
# n8n 1.x adds an "Allowed HTTP Request Domains" field to every community credential with `authenticate`,
# and its public API answers 400 without it (docs/compatibility.md).
n8n_create_credential() {
  n8n_api POST /credentials "$(jq -nc --arg n "$1" --arg u "$2" --arg k "$3" --arg line "$N8N_LINE" \
    '{name: $n, type: "contactDataApi", data: ({baseUrl: $u, apiKey: $k}
      + if $line == "1.x" then {allowedHttpRequestDomains: "all"} else {} end)}')" | jq -er .id
}

# n8n_test_credential <credential id>: n8n's own credential test (the editor's "Retry"/"Test" button);
# prints {status, message}.
n8n_test_credential() {
  local credential
  credential="$(n8n_rest GET "/credentials/$1?includeData=true" | jq -c '.data | {id, name, type, data}')" || return 1
  n8n_rest POST /credentials/test "$(jq -nc --argjson c "$credential" '{credentials: $c}')" | jq -c .data
}

# n8n_import_workflow <workflow file> [jq filter]: creates the workflow through the public API, prepared by
# localize-workflow.jq for this instance; the optional filter adapts it further. Prints the workflow's id.
n8n_import_workflow() {
  jq -c --arg credentialId "$CREDENTIAL_ID" --arg credentialName "$CREDENTIAL_NAME" --arg filesDir "$N8N_FILES_DIR" \
    "$(cat "$N8N_LIB_DIR/localize-workflow.jq") | ${2:-.}" "$1" \
    | { read -r body; n8n_api POST /workflows "$body"; } | jq -er .id
}

# n8n_activate <workflow id> / n8n_deactivate <workflow id>: publishes the workflow (its triggers start) or
# takes it back; fails unless n8n reports the new state.
n8n_activate() { n8n_api POST "/workflows/$1/activate" | jq -e '.active == true' >/dev/null; }
n8n_deactivate() { n8n_api POST "/workflows/$1/deactivate" | jq -e '.active == false' >/dev/null; }

# n8n_executions <workflow id>: the workflow's executions, newest first, with their data (one JSON array).
n8n_executions() { n8n_api GET "/executions?workflowId=$1&includeData=true&limit=250" | jq -c '.data'; }

# n8n_execution <execution id>: one execution with its data (as n8n_executions gives each), whatever main
# holds of it: n8n's list leaves out what main holds as running, this does not.
n8n_execution() { n8n_api GET "/executions/$1?includeData=true"; }
