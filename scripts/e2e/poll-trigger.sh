# The Contact Data Poll Trigger in the real n8n (sourced by scripts/e2e.sh and scripts/queue/test.sh, which
# provide check, poll, sandbox, n8n_api, n8n_executions and n8n_import_workflow): an active polling workflow is started by a
# sandbox job change within one poll interval (Poll Times: every minute) with the event's own changes;
# a change made while it was deactivated is emitted once at reactivation; a poll with no change starts
# nothing.
POLL_WORKFLOW_ID=""
POLL_LIST_ID=""

# A saved list of 20 VPs added by id (its members stay members whatever changes).
poll_list_by_id() {
  local ids
  ids="$(sandbox -X POST "$SANDBOX_URL/v1/search" \
    --data '{"filters": {"seniority": ["vp"]}, "limit": 20}' | jq -c '[.results[].id]')" &&
    sandbox -X POST "$SANDBOX_URL/v1/lists" \
      --data "$(jq -nc --argjson ids "$ids" '{name: "Champions (poll e2e)", contact_ids: $ids}')" | jq -er .id
}

# poll_event <type>: one sandbox change on the list, written into its data set; prints the event as JSON.
poll_event() {
  sandbox -X POST "$SANDBOX_URL/_sandbox/events" \
    --data "$(jq -nc --arg l "$POLL_LIST_ID" --arg t "$1" --arg k "$SANDBOX_KEY" '{type: $t, list_id: $l, count: 1, key: $k}')" |
    jq -c '.events[0]'
}

# poll_exports: the export calls the sandbox counted for the watched list's key (one per poll).
poll_exports() {
  sandbox "$SANDBOX_URL/_sandbox/stats" | jq --arg k "$SANDBOX_KEY" '.keys[$k].requests["POST /v1/lists/:id/export"] // 0'
}

poll_executions() { n8n_executions "$POLL_WORKFLOW_ID"; }
poll_execution_count() { poll_executions | jq 'length'; }
# poll_execution_with <event JSON>: an execution whose trigger emitted exactly that change.
poll_execution_with() {
  poll_executions | jq -e --argjson e "$1" 'any(.status == "success" and
    (.data.resultData.runData["Job changes"][0].data.main[0] | any(.json.type == $e.type
      and .json.contact.id == $e.contact.id and .json.changes == $e.changes)))' >/dev/null
}

# exports_above <count>: the sandbox has counted more list exports than that (a poll has read the list).
exports_above() { [ "$(poll_exports)" -gt "$1" ]; }

# n8n may finish an activation (and its first poll, the baseline) after the API call returns: a change
# made before that poll would be part of the baseline. So the check waits for the poll's export.
poll_workflow_publishes() {
  local before
  before="$(poll_exports)" &&
    POLL_LIST_ID="$(poll_list_by_id)" &&
    POLL_WORKFLOW_ID="$(n8n_import_workflow test/e2e/workflows/poll-job-change.json \
      "(.nodes[0].parameters.lists.list[0].savedList.value) = \"$POLL_LIST_ID\"")" &&
    n8n_api POST "/workflows/$POLL_WORKFLOW_ID/activate" | jq -e '.active == true' >/dev/null &&
    poll 60 exports_above "$before" && sleep 2 &&
    [ "$(poll_execution_count)" -eq 0 ] || { echo "exports: $before before, $(poll_exports) now" >&2; return 1; }
}

poll_job_change_within_interval() {
  local event
  event="$(poll_event job_change)" && poll 70 poll_execution_with "$event" ||
    { echo "executions: $(poll_executions | jq -c '[.[] | {id, status}]'); exports: $(poll_exports)" >&2; return 1; }
  [ "$(poll_execution_count)" -eq 1 ] || { echo "$(poll_execution_count) executions, expected 1" >&2; return 1; }
}

poll_change_while_inactive() {
  local event
  n8n_api POST "/workflows/$POLL_WORKFLOW_ID/deactivate" | jq -e '.active == false' >/dev/null &&
    event="$(poll_event role_change)" &&
    n8n_api POST "/workflows/$POLL_WORKFLOW_ID/activate" | jq -e '.active == true' >/dev/null &&
    poll 30 poll_execution_with "$event" || return 1
  [ "$(poll_execution_count)" -eq 2 ] || { echo "$(poll_execution_count) executions, expected 2" >&2; return 1; }
}

poll_without_change_starts_nothing() {
  sleep 65
  [ "$(poll_execution_count)" -eq 2 ] || { echo "$(poll_execution_count) executions, expected 2" >&2; return 1; }
  n8n_api POST "/workflows/$POLL_WORKFLOW_ID/deactivate" >/dev/null
}

poll_trigger_checks() {
  check "the poll trigger workflow publishes; its first poll records the list silently" poll_workflow_publishes
  check "poll trigger: a sandbox job change starts one execution within a poll interval, with the event's changes" \
    poll_job_change_within_interval
  check "poll trigger: a change made while the workflow was deactivated is emitted once at reactivation" \
    poll_change_while_inactive
  check "poll trigger: a poll with no change starts nothing" poll_without_change_starts_nothing
}

# ---------------------------------------------------------------- queue mode (scripts/queue/test.sh)

# Only the leader main polls: over about two minutes of "every minute", the activation's poll and one per
# tick (2 or 3 ticks), never one per process (main, 2 workers and the webhook processor would make 4 a tick).
poll_once_per_tick() {
  local before after
  before="$(poll_exports)" && sleep 125 && after="$(poll_exports)" || return 1
  [ $((after - before)) -ge 2 ] && [ $((after - before)) -le 3 ] ||
    { echo "$((after - before)) exports in 125 s, expected 2 or 3 (one a tick)" >&2; return 1; }
}

poll_trigger_queue_checks() {
  check "poll trigger (queue mode): the workflow publishes; its first poll records the list silently" poll_workflow_publishes
  check "poll trigger (queue mode): a sandbox job change starts exactly one execution within a poll interval" \
    poll_job_change_within_interval
  check "poll trigger (queue mode): one poll per tick across main, workers and webhook processor" poll_once_per_tick
  check "poll trigger (queue mode): a change made while deactivated is emitted once at reactivation" poll_change_while_inactive
  n8n_api POST "/workflows/$POLL_WORKFLOW_ID/deactivate" >/dev/null
}
