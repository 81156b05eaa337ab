# The Contact Data Poll Trigger in the real n8n (sourced by scripts/e2e.sh, which provides check, poll,
# sandbox, sandbox_admin, n8n_api and n8n_import_workflow): an active polling workflow is started by a
# sandbox job change within one poll interval (Poll Times: every minute) with the event's own changes;
# a change made while it was deactivated is emitted once at reactivation; a poll with no change starts
# nothing.
POLL_WORKFLOW_ID=""
POLL_LIST_ID=""

# A saved list of 20 VPs added by id (its members stay members whatever changes).
poll_list_by_id() {
  local ids
  ids="$(sandbox -X POST "$SANDBOX_URL/v1/search" -H 'content-type: application/json' \
    --data '{"filters": {"seniority": ["vp"]}, "limit": 20}' | jq -c '[.results[].id]')" &&
    sandbox -X POST "$SANDBOX_URL/v1/lists" -H 'content-type: application/json' \
      --data "$(jq -nc --argjson ids "$ids" '{name: "Champions (poll e2e)", contact_ids: $ids}')" | jq -er .id
}

# poll_event <type>: one sandbox change on the list, written into its data set; prints the event as JSON.
poll_event() {
  sandbox_admin -X POST "$SANDBOX_URL/_sandbox/events" \
    --data "$(jq -nc --arg l "$POLL_LIST_ID" --arg t "$1" --arg k "$SANDBOX_KEY" '{type: $t, list_id: $l, count: 1, key: $k}')" |
    jq -c '.events[0]'
}

poll_executions() { n8n_api GET "/executions?workflowId=$POLL_WORKFLOW_ID&includeData=true"; }
poll_execution_count() { poll_executions | jq '.data | length'; }
# poll_execution_with <event JSON>: an execution whose trigger emitted exactly that change.
poll_execution_with() {
  poll_executions | jq -e --argjson e "$1" '.data | any(.status == "success" and
    (.data.resultData.runData["Job changes"][0].data.main[0] | any(.json.type == $e.type
      and .json.contact.id == $e.contact.id and .json.changes == $e.changes)))' >/dev/null
}

poll_workflow_publishes() {
  POLL_LIST_ID="$(poll_list_by_id)" &&
    POLL_WORKFLOW_ID="$(n8n_import_workflow test/e2e/workflows/poll-job-change.json \
      "(.nodes[0].parameters.lists.list[0].savedList.value) = \"$POLL_LIST_ID\"")" &&
    n8n_api POST "/workflows/$POLL_WORKFLOW_ID/activate" | jq -e '.active == true' >/dev/null &&
    [ "$(poll_execution_count)" -eq 0 ]
}

poll_job_change_within_interval() {
  local event
  event="$(poll_event job_change)" && poll 70 poll_execution_with "$event" ||
    { echo "executions: $(poll_executions | jq -c '[.data[] | {id, status}]')" >&2; return 1; }
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
