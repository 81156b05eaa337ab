#!/usr/bin/env bash
# The end-to-end check (`npm run test:e2e`): this package inside a real n8n on Node 24, installed
# from its `npm pack` tarball the way n8n installs a community package, against the sandbox, with every
# outside call of n8n switched off. Checks, through n8n itself: the credential test, the example and test
# workflows run headlessly, the trigger's subscription lifecycle and signed deliveries, and that the
# package loads cleanly. Stops everything it started; on a failure prints n8n's log and exits non-zero.
#   N8N_LINE=2.x (default, n8n 2.41.1) or 1.x (n8n 1.123.81): the n8n line to check (scripts/n8n/paths.sh).
#   E2E_KEEP=1 keeps the work folder (logs, run outputs) after a successful run.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/n8n/lib.sh

WORK="$(mktemp -d "${TMPDIR:-/tmp}/contact-data-e2e-$N8N_LINE.XXXXXX")"
E2E_WORKFLOWS=test/e2e/workflows
OWNER_EMAIL=e2e@example.com
OWNER_PASSWORD="E2e-$(date +%s)-Pw"
checks_begin e2e "$WORK" stop
# A failed check ends the run with the end of n8n's log (checks.sh's check_logs).
CHECK_LOG_LINES=80

# ---------------------------------------------------------------- helpers
# run_workflow <name> <file> [jq filter]: imports the workflow (outside services swapped for n8n's own
# nodes, see offline.jq) and runs it headlessly with `n8n execute`; its run data goes to $WORK/<name>.json.
run_workflow() {
  local name="$1" file="$2" filter="${3:-.}" id
  # Named after the run, so the browser journey finds the example under its own name only.
  id="$(n8n_import_workflow "$file" "$(cat test/e2e/offline.jq) | $filter | .name = \"e2e run: $name\"")" || return 1
  env NODE_OPTIONS="$N8N_NODE_OPTIONS" N8N_RUNNERS_BROKER_PORT="$EXECUTE_BROKER_PORT" \
    "$N8N_BIN" execute --id="$id" --rawOutput >"$WORK/$name.out" 2>&1
  local status=$?
  # The run data is the one top-level JSON object; n8n's log lines may come before and after it.
  sed -n '/^{$/,/^}$/p' "$WORK/$name.out" >"$WORK/$name.json"
  if [ "$status" -ne 0 ] || ! jq -e . "$WORK/$name.json" >/dev/null 2>&1; then
    echo "n8n execute failed for $file:" >&2; tail -40 "$WORK/$name.out" >&2; return 1
  fi
}

# expect <run name> <node> <jq test>: the test holds for the JSON of that node's output items (an array).
expect() {
  jq -e --arg node "$2" ".data.resultData.runData[\$node][0].data.main[0] | map(.json) | $3" \
    "$WORK/$1.json" >/dev/null || {
    echo "expected of \"$2\" in $1: $3; its output:" >&2
    jq -c --arg node "$2" '.data.resultData.runData[$node][0] | {error, items: .data.main[0][:3]}' "$WORK/$1.json" >&2
    return 1
  }
}

# ran_to_end <run name> <node>: the run succeeded and its last node was <node> (the end of the example).
ran_to_end() {
  jq -e --arg node "$2" '.data.resultData.error == null and .data.resultData.lastNodeExecuted == $node' \
    "$WORK/$1.json" >/dev/null || {
    echo "$1 did not run to \"$2\": $(jq -c '{last: .data.resultData.lastNodeExecuted, error: .data.resultData.error.message}' "$WORK/$1.json")" >&2
    return 1
  }
}

# ---------------------------------------------------------------- 1. install and start
echo "e2e: n8n $N8N_VERSION (the $N8N_LINE line), work folder $WORK"
read -r N8N_PORT_E2E SERVER_BROKER_PORT EXECUTE_BROKER_PORT <<<"$(free_ports 3)"
# n8n's processes log every DNS lookup of an outside host here (there must be none).
export DNS_LOG_FILE="$WORK/dns-lookups.log"
N8N_EXTRA_NODE_OPTIONS="--require $N8N_LIB_DIR/dns-log.cjs"
started=$SECONDS
check "install Node 24 and n8n $N8N_VERSION, install the packed package, start the sandbox and n8n, set up the owner" \
  bring_up "$WORK" "$N8N_PORT_E2E" "$SERVER_BROKER_PORT" 0 SANDBOX_CONTACTS=150000 SANDBOX_TIME_SCALE=60
echo "e2e: n8n up after $((SECONDS - started)) s"
PACKAGE_DIR="$N8N_USER_FOLDER/.n8n/nodes/node_modules/n8n-nodes-contact-data"

package_is_installed_copy() {
  [ -d "$PACKAGE_DIR/dist" ] && [ ! -L "$PACKAGE_DIR" ] && [ ! -e "$PACKAGE_DIR/node_modules/n8n-workflow" ] &&
    [ ! -e "$PACKAGE_DIR/node_modules/zod" ] &&
    jq -e '(.devDependencies // .peerDependencies // .optionalDependencies) == null' "$PACKAGE_DIR/package.json" >/dev/null
}
check "the package is an installed copy of the tarball, without peer or dev dependencies beside it" package_is_installed_copy

# Every bare import in the compiled package is one n8n provides (NODE_PATH) or a Node built-in.
only_allowed_imports() {
  local bad
  bad="$(grep -rhoE "require\(\"[^\".][^\"]*\"\)" "$PACKAGE_DIR/dist" | sort -u |
    grep -vE 'require\("(n8n-workflow|zod|node:crypto|crypto)"\)' || true)"
  [ -z "$bad" ] || { echo "unexpected imports: $bad" >&2; return 1; }
}
check "the compiled package imports only n8n-workflow, zod and node:crypto" only_allowed_imports

# Loads the compiled node, trigger and credential as n8n does (NODE_PATH = n8n's module folders, set by
# n8n at start) and shows that zod and n8n-workflow resolve to n8n's own copies.
imports_resolve_to_n8n() {
  local app="$N8N_CACHE_DIR/app/node_modules" resolved
  resolved="$(cd "$PACKAGE_DIR" && NODE_PATH="$app/n8n/node_modules:$app" node -e '
    const { resolve, dirname } = require("node:path");
    const pkg = require("./package.json");
    for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) require(resolve(file));
    for (const name of ["zod", "n8n-workflow"]) {
      console.log(name, require.resolve(name, { paths: [dirname(resolve(pkg.n8n.nodes[0]))] }));
    }')" || return 1
  echo "$resolved" | sed 's/^/        /'
  [ "$(grep -c " $app/" <<<"$resolved")" -eq 2 ]
}
check "the package loads with n8n's module paths; zod and n8n-workflow resolve to n8n's own copies" imports_resolve_to_n8n

node_types_loaded() {
  curl -sS -b "$N8N_COOKIES" "$N8N_BASE/types/nodes.json" >"$WORK/node-types.json" &&
    jq -e '[.[].name] as $n | all("n8n-nodes-contact-data.contactData", "n8n-nodes-contact-data.contactDataTrigger",
      "n8n-nodes-contact-data.contactDataTool"; . as $t | $n | index($t))' "$WORK/node-types.json" >/dev/null
}
check "n8n lists the Contact Data node, its AI tool variant and the trigger" node_types_loaded

# ---------------------------------------------------------------- 2. credential
credential_test_passes() {
  local result
  result="$(n8n_test_credential "$CREDENTIAL_ID")" || return 1
  jq -e '.status == "OK"' <<<"$result" >/dev/null || { echo "credential test: $result" >&2; return 1; }
}
check "n8n's credential test passes for the sandbox credential" credential_test_passes

credential_test_refuses_revoked_key() {
  local id result
  id="$(n8n_create_credential "Contact Data revoked key" "$SANDBOX_URL" sk_sandbox_revoked)" || return 1
  result="$(n8n_test_credential "$id")" || return 1
  jq -e '.status == "Error" and (.message | test("refused|unknown|revoked"; "i"))' <<<"$result" >/dev/null ||
    { echo "credential test: $result" >&2; return 1; }
}
check "n8n's credential test fails, with the reason, for a revoked key" credential_test_refuses_revoked_key

# test_credential_at <Base URL>: n8n's credential test for the sandbox key at that Base URL.
test_credential_at() {
  local id
  id="$(n8n_create_credential "Contact Data at $1" "$1" "$SANDBOX_KEY")" && n8n_test_credential "$id"
}

credential_test_explains_base_url() {
  local malformed refused nothing_there
  malformed="$(test_credential_at 'api.contactdata.example')" &&
    refused="$(test_credential_at 'http://api.contactdata.example')" &&
    nothing_there="$(test_credential_at 'http://127.0.0.1:9')" || return 1
  jq -e '.status == "Error" and (.message | startswith("The Contact Data API credential’s Base URL \"api.contactdata.example\" is not a valid web address"))' \
    <<<"$malformed" >/dev/null || { echo "credential test, malformed Base URL: $malformed" >&2; return 1; }
  jq -e '.status == "Error" and (.message | test("Base URL \"http://api.contactdata.example\" is refused: it must start with https://"))' \
    <<<"$refused" >/dev/null || { echo "credential test, plain http Base URL: $refused" >&2; return 1; }
  jq -e '.status == "Error" and (.message | startswith("Nothing answers at the Base URL \"http://127.0.0.1:9\" (ECONNREFUSED: "))' \
    <<<"$nothing_there" >/dev/null || { echo "credential test, nothing answers: $nothing_there" >&2; return 1; }
}
check "n8n's credential test says why a Base URL is malformed or refused, and that nothing answers at an address" \
  credential_test_explains_base_url

# ---------------------------------------------------------------- 3. workflows, run headlessly
# Version 2, what a newly added node gets (issue 26: on n8n 1.x it once failed every operation). Run
# first, on a fresh sandbox, so every contact it unlocks is new: Max Credits 2 unlocks two of three.
version_2_runs() {
  local before
  before="$(sandbox_credits_charged)"
  run_workflow version-2 "$E2E_WORKFLOWS/version-2.json" &&
    expect version-2 "Search three managers" 'length == 3' &&
    expect version-2 "Unlock within 2 credits" \
      'length == 3 and ([.[] | select(.unlocked == true)] | length) == 2 and ([.[] | select(.unlock_skipped == "budget")] | length) == 1' &&
    [ "$(($(sandbox_credits_charged) - before))" -eq 2 ] || return 1
  # Each unlocked contact with an email is enriched (free: the account holds it).
  jq -e '.data.resultData.runData as $r
    | [$r["Unlock within 2 credits"][0].data.main[0][].json | select(.unlocked == true and (.email | type) == "string") | .id] as $held
    | [$r["Enrich by email"][0].data.main[0][].json | select(.unlocked == true) | .id] as $enriched
    | ($held | length) > 0 and ($held - $enriched) == []' "$WORK/version-2.json" >/dev/null ||
    { echo "enrich: $(jq -c '.data.resultData.runData["Enrich by email"][0].data.main[0] | map(.json | {id, unlocked, error})' "$WORK/version-2.json")" >&2; return 1; }
}
check "version 2 of the node: search three contacts, unlock two within Max Credits 2, enrich them by email" version_2_runs

examples_use_known_nodes() {
  local example missing line
  for example in examples/*.json; do
    # An example that needs the other line says so (meta.needsN8nLine, and in its sticky note).
    line="$(jq -r '.meta.needsN8nLine // empty' "$example")"
    if [ -n "$line" ] && [ "$line" != "$N8N_LINE" ]; then
      echo "  $example needs n8n $line: not checked on $N8N_LINE" >&2; continue
    fi
    missing="$(jq -r --slurpfile types "$WORK/node-types.json" '
      [$types[0][] | {name, v: (.version | if type == "array" then .[] else . end)}] as $known
      | .nodes[] | select(. as $n | $known | any(.name == $n.type and .v == $n.typeVersion) | not)
      | "\(.name) (\(.type) v\(.typeVersion))"' "$example")" || return 1
    [ -z "$missing" ] || { echo "$example uses node types this n8n lacks: $missing" >&2; return 1; }
  done
}
check "every node of every example is a node type and version this n8n has" examples_use_known_nodes

# As shipped, an example needs only the sandbox credential: every enabled node that requires a credential
# requires Contact Data's (HubSpot and Slack ship disabled). The AI agent's chat model is the one exception.
examples_need_only_the_sandbox_credential() {
  local example needing
  for example in examples/*.json; do
    # A credential applies when its displayOptions.show hold for the node's parameters (or their defaults).
    needing="$(jq -r --slurpfile types "$WORK/node-types.json" '
      .nodes[] | select(.disabled != true and .type != "@n8n/n8n-nodes-langchain.lmChatOpenAi") | . as $n
      | [$types[0][] | select(.name == $n.type and ([.version] | flatten | index($n.typeVersion)))] | first // empty
      | . as $t
      | def value($k): $n.parameters[$k] // first($t.properties[] | select(.name == $k) | .default);
        [.credentials // [] | .[] | select(.required == true)
         | select((.displayOptions.show // {}) | to_entries | all(value(.key | ltrimstr("/")) as $v | .value | index($v) != null))
         | .name]
      | unique | map(select(. != "contactDataApi")) | select(length > 0)
      | "\($n.name) needs \(join(", "))"' "$example")" || return 1
    [ -z "$needing" ] || { echo "$example: $needing" >&2; return 1; }
  done
}
check "every example runs with only the sandbox credential (outside services ship disabled, with a note)" \
  examples_need_only_the_sandbox_credential

charged_before=0
search_unlock_upsert() {
  charged_before="$(sandbox_credits_charged)"
  run_workflow search-unlock examples/search-unlock-upsert-crm.json &&
    expect search-unlock "Search VPs of Engineering" \
      'length == 25 and all(.seniority == "vp" and .country == "US" and .unlocked == false)' &&
    expect search-unlock "Unlock within 25 credits" \
      'length == 25 and all((.id | startswith("ct_")) and (.name | length) > 0)' &&
    expect search-unlock "Contact for the CRM" \
      'length > 0 and all((.email | test("@")) and (.company | type) == "string" and (.first_name | length) > 0 and (.last_name | length) > 0)' &&
    ran_to_end search-unlock "Upsert contact in HubSpot" &&
    [ "$(($(sandbox_credits_charged) - charged_before))" -eq 25 ]
}
check "example, as shipped: search 25 VPs of Engineering, unlock them for 25 credits, shape the verified ones for the CRM, to the end" \
  search_unlock_upsert

rerun_is_free() {
  charged_before="$(sandbox_credits_charged)"
  run_workflow search-unlock-again examples/search-unlock-upsert-crm.json &&
    expect search-unlock-again "Unlock within 25 credits" 'length == 25 and all(.id | startswith("ct_"))' &&
    [ "$(sandbox_credits_charged)" -eq "$charged_before" ]
}
check "running it again unlocks the same 25 contacts free of charge" rerun_is_free

budget_stops_before_spending() {
  charged_before="$(sandbox_credits_charged)"
  run_workflow over-budget examples/search-unlock-upsert-crm.json '
    .nodes |= map(if .name == "Search VPs of Engineering" then .parameters.filters.country = "DE" else . end
      | if .name == "Unlock within 25 credits" then .parameters.maxCredits = 10 | .onError = "continueRegularOutput" else . end)' &&
    expect over-budget "Unlock within 25 credits" 'length > 0 and all(.error | test("Max Credits of 10 is not enough"))' &&
    [ "$(sandbox_credits_charged)" -eq "$charged_before" ]
}
check "with Max Credits 10 for 25 new contacts nothing is sent or charged, and each item says why" \
  budget_stops_before_spending

export_saved_list() {
  local file="$N8N_FILES_DIR/series-b-engineering-leaders.csv" count
  run_workflow export examples/export-saved-list-to-file.json &&
    expect export "Create saved list" 'length == 1 and (.[0].id | startswith("ls_")) and .[0].contact_count > 0' &&
    expect export "Export as CSV" 'length == 1 and .[0].format == "csv"' &&
    ran_to_end export "Write CSV file" || return 1
  count="$(jq -r '.data.resultData.runData["Create saved list"][0].data.main[0][0].json.contact_count' "$WORK/export.json")"
  [ -f "$file" ] || { echo "no file at $file" >&2; return 1; }
  [ "$(head -1 "$file" | tr -d '\r')" = "id,first_name,last_name,title,company.name,company.domain,email" ] ||
    { echo "unexpected header: $(head -1 "$file")" >&2; return 1; }
  [ "$(($(wc -l <"$file") - 1))" -eq "$count" ] || { echo "$file has $(wc -l <"$file") lines for $count members" >&2; return 1; }
  SAVED_LIST_ID="$(jq -r '.data.resultData.runData["Create saved list"][0].data.main[0][0].json.id' "$WORK/export.json")"
}
check "example: create a saved list from filters and export it to a CSV file with one row per member" export_saved_list

# The same example for a list of all 150,000 contacts: the export comes as a signed URL (lists of 100,000
# or more) and is streamed to the file.
export_large_list() {
  local file="$N8N_FILES_DIR/everyone.csv"
  run_workflow export-large examples/export-saved-list-to-file.json '
    .nodes |= map(if .name == "Create saved list" then .parameters.name = "Everyone" | .parameters.filters = {} else . end
      | if .name == "Write CSV file" then .parameters.fileName |= sub("[^/]+$"; "everyone.csv") else . end)' &&
    expect export-large "Create saved list" 'length == 1 and .[0].contact_count == 150000' &&
    expect export-large "Export as CSV" 'length == 1 and .[0].contact_count == 150000' || return 1
  [ "$(wc -l <"$file")" -eq 150001 ] || { echo "$file has $(wc -l <"$file") lines" >&2; return 1; }
}
check "a list of all 150,000 contacts is exported through the signed URL and streamed to a file" export_large_list

enrich_refund_balance() {
  run_workflow credits "$E2E_WORKFLOWS/enrich-refund-balance.json" &&
    expect credits "Unlock premium" 'length == 1 and .[0].level == "premium" and (.[0].email | type) == "string"' || return 1
  local id
  id="$(jq -r '.data.resultData.runData["Unlock premium"][0].data.main[0][0].json.id' "$WORK/credits.json")"
  expect credits "Enrich by email" "length == 1 and .[0].id == \"$id\"" &&
    expect credits "File refund claim" "length == 1 and .[0].contact_id == \"$id\" and .[0].status == \"approved\" and .[0].credits_refunded == 2" &&
    expect credits "Get balance" \
      "length == 1 and .[0].tier == \"growth\" and (.[0].refunds | any(.contact_id == \"$id\")) and (.[0].usage | any(.contact_id == \"$id\"))"
}
check "unlock at premium, enrich by email, file a refund claim (2 credits back) and read the balance" enrich_refund_balance

# A refused key in a run: the error n8n keeps for the failed node is in the package's words (the API's
# reason, and what to do), not n8n's generic text for a 401, on every n8n line.
run_refused_in_words() {
  local revoked
  revoked="$(n8n_create_credential "Contact Data revoked key (run)" "$SANDBOX_URL" sk_sandbox_revoked)" || return 1
  # The run fails, as it should: its run data is still written.
  CREDENTIAL_ID="$revoked" run_workflow refused-run examples/search-unlock-upsert-crm.json 2>/dev/null
  jq -e '.data.resultData.error | (.message | test("revoked")) and (.message | test("check your credentials"; "i") | not)
    and (.description | test("The API key was refused: it is unknown or has been revoked"))' "$WORK/refused-run.json" >/dev/null ||
    { echo "the run's error: $(jq -c '.data.resultData.error | {message, description}' "$WORK/refused-run.json" 2>&1)" >&2; return 1; }
  echo "        n8n: $(jq -r '.data.resultData.error | "\(.message) / \(.description)"' "$WORK/refused-run.json")"
  # Its log holds the failure it is meant to have: kept apart from the check that the logs are clean.
  mv "$WORK/refused-run.out" "$WORK/refused-run.expected-failure.log"
}
check "a run with a revoked key stops with the node's reason and advice in words" run_refused_in_words

ai_agent_example_loads() {
  local id
  id="$(n8n_import_workflow examples/ai-agent-prospecting.json)" &&
    n8n_api GET "/workflows/$id" >"$WORK/ai-agent.json" &&
    jq -e '[.nodes[] | select(.type == "n8n-nodes-contact-data.contactDataTool")] | length == 3' "$WORK/ai-agent.json" >/dev/null &&
    jq -e '[.connections[] | .ai_tool // empty | .[][] | select(.node == "AI Agent")] | length == 3' "$WORK/ai-agent.json" >/dev/null &&
    jq -e '.[] | select(.name == "n8n-nodes-contact-data.contactDataTool") | .outputs == ["ai_tool"]' "$WORK/node-types.json" >/dev/null
}
check "example: the AI agent imports with three Contact Data tools wired to the agent (running it needs a model)" \
  ai_agent_example_loads

# ---------------------------------------------------------------- 4. the trigger, through n8n's activation
ALERT_WORKFLOW_ID=""

activate_registers_subscription() {
  ALERT_WORKFLOW_ID="$(n8n_import_workflow examples/job-change-alert.json)" &&
    n8n_activate "$ALERT_WORKFLOW_ID" && poll 30 sandbox_subscribed "$N8N_BASE/webhook/" ||
    { echo "subscriptions: $(sandbox_subscriptions)" >&2; return 1; }
}
check "the job change alert, as shipped, publishes and subscribes to the service (GET /v1/webhooks shows n8n's URL)" \
  activate_registers_subscription

execution_with_event() {
  n8n_executions "$ALERT_WORKFLOW_ID" | jq -e --arg e "$1" 'any(.status == "success"
    and (.data.resultData.runData["When a contact changes job"][0].data.main[0][0].json.event_id == $e)
    and (.data.resultData.runData["Compose alert"][0].data.main[0][0].json.text | test(" moved from .+ to .+ as "))
    and .data.resultData.lastNodeExecuted == "Post to Slack")' >/dev/null
}
# emit_event: makes one job change happen to a member of the saved list; prints the event's id.
# It is the command the trigger's test-listen panel names (npm run sandbox:event).
emit_event() {
  SANDBOX_URL="$SANDBOX_URL" node scripts/sandbox-event.mjs job_change "$SAVED_LIST_ID" | grep -oE 'evt_[^ ]+' | head -1
}
execution_count() { n8n_executions "$ALERT_WORKFLOW_ID" | jq 'length'; }

signed_event_starts_execution() {
  local event
  event="$(emit_event)" && poll 30 execution_with_event "$event" ||
    { echo "executions: $(n8n_executions "$ALERT_WORKFLOW_ID" | jq -c '[.[] | {id, status}]')" >&2; return 1; }
}
check "a job change in the sandbox reaches n8n signed and runs the alert with the event's data" signed_event_starts_execution

# A forged delivery, then a real one: once the real one has run, exactly one execution was added.
forged_event_is_refused() {
  local url before status body event
  url="$(sandbox_subscriptions | jq -r '.[0].url')"
  before="$(execution_count)"
  body="$(jq -nc '{id: "evt_forged", type: "job_change", created_at: "2026-01-01T00:00:00Z", list_id: "ls_x", contact: {}}')"
  status="$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url" -H 'content-type: application/json' \
    -H 'webhook-id: evt_forged' -H "webhook-timestamp: $(date +%s)" \
    -H 'webhook-signature: v1,bm90IHRoZSBzZXJ2aWNlJ3Mgc2lnbmF0dXJlIGF0IGFsbCE=' --data "$body")"
  [ "$status" = 401 ] || { echo "forged delivery answered $status" >&2; return 1; }
  event="$(emit_event)" && poll 30 execution_with_event "$event" || return 1
  [ "$(execution_count)" -eq "$((before + 1))" ] || { echo "executions: $before before, $(execution_count) after" >&2; return 1; }
}
check "a forged delivery is answered 401 and starts no execution" forged_event_is_refused

# n8n keeps its webhooks registered over a restart and asks the trigger whether its subscription still
# exists: afterwards there must still be exactly one, and it must still start the workflow.
restart_keeps_one_subscription() {
  local before event
  before="$(sandbox_subscriptions | jq -r '.[0].id')"
  stop_group "$N8N_PID" && start_n8n "$WORK/n8n-restarted.log" || return 1
  N8N_LOG="$WORK/n8n-restarted.log"
  # Once an event has run the workflow again, n8n has re-activated it (and run checkExists/create).
  event="$(emit_event)" && poll 60 execution_with_event "$event" || return 1
  sandbox_subscriptions | jq -e --arg id "$before" 'length == 1 and .[0].id == $id' >/dev/null ||
    { echo "subscriptions after the restart: $(sandbox_subscriptions)" >&2; return 1; }
}
check "after n8n restarts, the same single subscription remains and still starts the workflow" \
  restart_keeps_one_subscription

deactivate_removes_subscription() {
  n8n_deactivate "$ALERT_WORKFLOW_ID" && poll 30 sandbox_unsubscribed ||
    { echo "subscriptions: $(sandbox_subscriptions)" >&2; return 1; }
}
check "deactivating the workflow deletes the subscription" deactivate_removes_subscription

# Publishing with a refused key: the trigger's reason reaches n8n in the package's words (n8n 1.x's errors
# lose what they wrap). n8n 1.x refuses to publish and answers with that reason. n8n 2.41.1 publishes in
# the background: a webhook trigger's failure there reaches only n8n's log (and n8n retries it), so the
# log is read, and the workflow unpublished again.
activation_refused_in_words() {
  local revoked id answer
  revoked="$(n8n_create_credential "Contact Data revoked key (trigger)" "$SANDBOX_URL" sk_sandbox_revoked)" &&
    id="$(CREDENTIAL_ID="$revoked" n8n_import_workflow examples/job-change-alert.json '.name = "e2e: alert with a revoked key"')" ||
    return 1
  if answer="$(n8n_api POST "/workflows/$id/activate")"; then
    poll 30 grep -q 'this API key has been revoked' "$N8N_LOG" && n8n_deactivate "$id" || return 1
    echo "        n8n's log: $(grep -m1 'this API key has been revoked' "$N8N_LOG")"
    return 0
  fi
  echo "        n8n: $(jq -r .message <<<"$answer")"
  jq -e '.message | test("revoked") and (test("check your credentials"; "i") | not)' <<<"$answer" >/dev/null
}
check "publishing the job change alert with a revoked key: n8n gets the trigger's reason in words" activation_refused_in_words

# The poll trigger's checks (scripts/e2e/poll-trigger.sh).
source scripts/e2e/poll-trigger.sh
poll_trigger_checks
source scripts/e2e/agents.sh && agents_checks   # the AI Agent and MCP checks (issue 27)

# ---------------------------------------------------------------- 5. a journey in a real browser
# Headless Chromium (Debian's package) drives the editor as a person would: sign in, open the example from the
# workflow list, execute it, read the Unlock node's output table, read an error as displayed, drag a field onto
# Contact ID Field and run the node, add a new Unlock node (scripts/n8n/journey.mjs, driven by playwright-core).
# Its screenshots are those of docs/images/; each line's are kept in build/e2e-screenshots/n8n-<version>/.
check "Chromium for the browser journey (Debian's package, installed when missing)" ensure_chromium
E2E_SHOTS="build/e2e-screenshots/n8n-$N8N_VERSION"
browser_journey_passes() {
  browser_journey "$WORK/screenshots" | tee "$WORK/browser.log" | sed 's/^/  /'
  local status="${PIPESTATUS[0]}"
  rm -rf "$E2E_SHOTS" && mkdir -p "$E2E_SHOTS" && cp "$WORK"/screenshots/*.png "$E2E_SHOTS"/
  echo "  screenshots: $E2E_SHOTS"
  [ "$status" -eq 0 ]
}
check "browser: execute the search → unlock example, read its output and an error, drag a field, add an Unlock node" \
  browser_journey_passes

# The committed pictures of this line show what this run's editor shows (scripts/n8n/compare-pictures.mjs); with
# PICTURES_RETAKE=1 this run's pictures replace those that differ (scripts/n8n/screenshot.sh). They are Debian
# Chromium's pictures: another browser (CHROMIUM, as on GitHub's runners) renders fonts otherwise, so there they
# are not compared, and the run says so.
PICTURES="docs/images/n8n-$N8N_LINE"
pictures_show_the_nodes() {
  mkdir -p "$PICTURES"
  node "$N8N_LIB_DIR/compare-pictures.mjs" "$PICTURES" "$WORK/screenshots" "$E2E_SHOTS/differences" \
    ${PICTURES_RETAKE:+--retake}
}
if [ "${CHROMIUM:-/usr/bin/chromium}" = /usr/bin/chromium ]; then
  check "the pictures in $PICTURES show the nodes as this run's editor does" pictures_show_the_nodes
else
  echo "  pictures not compared: they are Debian Chromium's, and this run's browser is $CHROMIUM"
fi

# ---------------------------------------------------------------- 6. n8n's own view of the package
# n8n's server log, and the log lines (before the JSON run data) of each `n8n execute`.
server_and_execute_logs_are_clean() {
  { cat "$WORK"/n8n*.log; for out in "$WORK"/*.out; do sed '/^{$/,/^}$/d' "$out"; done; } | no_package_complaints
}
check "n8n's logs carry no warning or error about the package" server_and_execute_logs_are_clean

no_outside_calls() {
  [ ! -s "$DNS_LOG_FILE" ] || { echo "n8n looked up outside hosts:" >&2; sort -u "$DNS_LOG_FILE" >&2; return 1; }
}
check "n8n made no outside call (no DNS lookup of a non-loopback host)" no_outside_calls
