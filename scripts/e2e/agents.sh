# The Contact Data tools used the way agent builders use them (issue 27), sourced by scripts/e2e.sh, which
# provides check, poll, sandbox, sandbox_admin, spawn, wait_for, n8n_api, n8n_activate and
# n8n_import_workflow. Two ways in, with the sandbox as the API:
#   - n8n's AI Agent (3.1) with its OpenAI Chat Model (1.3) pointed at a scripted OpenAI-compatible model served
#     here (scripts/e2e/scripted-model.mjs: no account, no network), the Contact Data tools (version 2) attached;
#   - an MCP client on the official SDK (scripts/e2e/mcp-client.mjs) against the MCP Server Trigger (2.1) of
#     examples/mcp-contact-data-tools.json, over Streamable HTTP and over SSE.
# Both are reduced to one shape, {tools: [{name, description}], calls: [{name, args, text, bytes}]}: what the
# model or client was offered and what each tool call gave it, so every check reads them alike.
# Runs on both n8n lines. n8n 1.123 has the AI Agent up to 3 and the MCP Server Trigger up to 2.0: there the
# workflows use those (ON_THIS_LINE). Trigger 2.0 hands the tool no MCP session id, so the check of Max Credits
# per MCP Session runs on 2.x only.
#   bash scripts/e2e/agents.sh   runs these checks alone, against an n8n and a sandbox it starts.

AGENT_WORKFLOW=test/e2e/workflows/agent-tools.json
MCP_EXAMPLE=examples/mcp-contact-data-tools.json
MCP_PATH=contact-data-e2e

# ---------------------------------------------------------------- the two ways in
# agents_start_model: the scripted model on a free port (MODEL_URL is its OpenAI base URL), and an OpenAI
# credential pointing at it (MODEL_CREDENTIAL_ID).
agents_start_model() {
  local log="$WORK/scripted-model.log"
  spawn "$log" node scripts/e2e/scripted-model.mjs 0
  wait_for 30 "$SPAWNED_PID" "$log" grep -q 'scripted model: http' "$log" || return 1
  MODEL_URL="$(grep -o 'http://[^ ]*' "$log" | head -1)"
  export MODEL_CREDENTIAL_ID
  MODEL_CREDENTIAL_ID="$(n8n_api POST /credentials "$(jq -nc --arg u "$MODEL_URL" \
    '{name: "Scripted model", type: "openAiApi", data: {apiKey: "sk-scripted-no-account", url: $u, header: false}}')" |
    jq -er .id)"
}

# agents_publish <workflow file> <jq filter>: imports the workflow, adapted, and publishes it.
agents_publish() {
  local id
  id="$(n8n_import_workflow "$1" "$2 | $(on_this_line)")" && n8n_activate "$id"
}

agents_on_n8n_2() { [[ "$("$N8N_BIN" --version 2>/dev/null | tail -1)" == 2.* ]]; }

# The jq filter that gives the AI Agent and the MCP Server Trigger versions this n8n has.
on_this_line() {
  if agents_on_n8n_2; then echo .; else
    echo '.nodes |= map(if .type == "@n8n/n8n-nodes-langchain.agent" then .typeVersion = ([.typeVersion, 3] | min)
      elif .type == "@n8n/n8n-nodes-langchain.mcpTrigger" then .typeVersion = ([.typeVersion, 2] | min) else . end)'
  fi
}

# The agent's workflow: a webhook hands a prompt to the AI Agent, whose tools are the Contact Data tools with
# n8n's default descriptions (what the node offers a model unless the builder writes one).
agents_publish_agent() {
  AGENT_URL="$N8N_BASE/webhook/contact-data-agent-e2e"
  agents_start_model && agents_publish "$AGENT_WORKFLOW" "$WITH_SCRIPTED_MODEL"
}
# Any OpenAI Chat Model of a workflow talks to the scripted model, over Chat Completions.
WITH_SCRIPTED_MODEL='.nodes |= map(if .type == "@n8n/n8n-nodes-langchain.lmChatOpenAi" then
  .credentials.openAiApi = {id: $ENV.MODEL_CREDENTIAL_ID, name: "Scripted model"} | .parameters.responsesApiEnabled = false else . end)'

# agents_publish_mcp <path> <4 hex digits> <jq filter on the Unlock node>: the MCP example at /mcp/<path>, its
# tools with the node's default descriptions, the Unlock node adapted; node ids made its own with the digits.
agents_publish_mcp() {
  agents_publish "$MCP_EXAMPLE" "
    .nodes |= map(.id |= sub(\"-0000(?<n>[0-9]{8})\$\"; \"-$2\\(.n)\") | del(.parameters.descriptionType, .parameters.toolDescription)
      | if .type == \"@n8n/n8n-nodes-langchain.mcpTrigger\" then .parameters.path = \"$1\" | .webhookId |= .[:-4] + \"$2\" else . end
      | if .name == \"Unlock contacts\" then $3 else . end)"
}

# The conversation the model was sent last (its final request holds every tool call and result), reduced.
CONVERSATION_JQ='.requests[-1] as $r
  | ([$r.messages[] | .tool_calls // [] | .[] | {key: .id, value: {name: .function.name, args: (.function.arguments | fromjson)}}]
     | from_entries) as $asked
  | {tools: [$r.tools // [] | .[] | {name: .function.name, description: .function.description, parameters: .function.parameters}],
     calls: [$r.messages[] | select(.role == "tool")
       | (if (.content | type) == "string" then .content else ([.content[]? | .text // ""] | join("")) end) as $text
       | $asked[.tool_call_id] + {text: $text, bytes: ($text | utf8bytelength)}]}'

# Where converse sends the agent its prompt: the agent test workflow's webhook (set by agents_publish_agent).
AGENT_URL=""
AGENT_BODY='{"prompt": "Find directors and unlock the ones I need."}'

# converse <agent|http|sse> <name> <calls JSON> [MCP path]: one agent execution (the scripted model makes the calls
# one a turn) or one MCP session (the client makes them); the conversation goes to $WORK/<way>-<name>.json.
converse() {
  local way="$1" out="$WORK/$1-$2.json" calls="$3" model="${MODEL_URL%/v1}"
  case "$way" in
    agent)
      curl -sSf -X DELETE "$model/_requests" >/dev/null &&
        curl -sSf -X POST "$model/_script" -H 'content-type: application/json' \
          --data "$(jq -c '{turns: map([.])}' <<<"$calls")" >/dev/null &&
        curl -sS --fail-with-body -X POST "$AGENT_URL" -H 'content-type: application/json' --data "$AGENT_BODY" \
          >"$WORK/agent-$2.answer" &&
        curl -sSf "$model/_requests" | jq -c "$CONVERSATION_JQ" >"$out" ;;
    *) node scripts/e2e/mcp-client.mjs "$N8N_BASE/mcp/$4" "$way" "$calls" >"$out" ;;
  esac || { echo "$way conversation $2 failed: $(tail -c 600 "$WORK/agent-$2.answer" 2>/dev/null)" >&2; return 1; }
}

# calls <country>[:<seniority>] <call JSON…>: a search of that country's directors (or other seniority), then
# the calls. Each scenario searches its own country and seniority, so the contacts it unlocks are new to the account.
calls() {
  local country="${1%%:*}" seniority="director"
  [[ "$1" == *:* ]] && seniority="${1#*:}"
  shift
  jq -nc --arg c "$country" --arg s "$seniority" \
    '[{tool: "Search contacts", args: {job_titles: "", seniorities: $s, countries: $c}}] + [$ARGS.positional[] | fromjson]' \
    --args "$@"
}
unlock() { jq -nc --arg ids "$1" '{tool: "Unlock contacts", args: {contact_ids: $ids}}'; }

# ---------------------------------------------------------------- reading an answer
# What a tool call answered, as JSON: n8n hands the tool's items over as a JSON array (the first is the answer);
# an MCP client gets a failure as plain text, kept as {error: <text>}.
ANSWER_JQ='def answer: (.text | fromjson? // {error: .}) | if type == "array" then .[0] else . end;'

# conversation <way> <name> <jq filter using answer>: the filter holds for that conversation.
conversation() {
  jq -e "$ANSWER_JQ $3" "$WORK/$1-$2.json" >/dev/null || {
    echo "expected of the $1 conversation $2: $3; it was:" >&2
    jq -c '{tools: [.tools[] | {name, description}], calls: [.calls[] | {name, args, text: .text[:700]}]}' "$WORK/$1-$2.json" >&2
    return 1
  }
}

# charged_during <command…>: runs it; CHARGED is what the sandbox charged the key meanwhile.
charged_during() {
  local before
  before="$(sandbox_credits_charged)" && "$@" && CHARGED=$(($(sandbox_credits_charged) - before))
}

# ---------------------------------------------------------------- the checks' bodies (way, name, …)
# n8n describes a tool by its action ("Unlock contacts in Contact Data"): the price is in the descriptions of
# the arguments the model fills (the tool's parameters), and a free tool names none.
descriptions_name_cost() {
  conversation "$1" "$2" '
    (.tools | map(select(.name | test("unlock"; "i"))) | length == 1
      and all(.parameters | tostring | test("1 credit") and test("2 at premium") and test("Max Credits")))
    and (.tools | map(select(.name | test("search|balance"; "i"))) | length == 2
      and all([.description, (.parameters | tostring)] | join(" ") | test("1 credit|at premium|Max Credits") | not))'
}

# repeat_is_charged_once <way> <country> <replays of the second unlock> [MCP path]: the same 2 new contacts
# unlocked twice in one execution or session (4 credits at worst, within Max Credits 5, so neither call is refused
# beforehand); the sandbox charged 2 and the answers told 2, once. In an agent execution the second call is the
# first's replay (the same Idempotency-Key); an MCP call is a call of its own, free because the contacts are held.
repeat_is_charged_once() {
  local way="$1"
  charged_during converse "$way" repeat "$(calls "$2" "$(unlock '$ids:0-2')" "$(unlock '$ids:0-2')")" "${4:-}" || return 1
  echo "$CHARGED" >"$WORK/$way-repeat.charged"
  [ "$CHARGED" -eq 2 ] || { echo "the sandbox charged $CHARGED for 2 new contacts unlocked twice" >&2; return 1; }
  conversation "$way" repeat "[.calls[] | select(.name | test(\"unlock\"; \"i\")) | answer] as \$u
    | (\$u | length == 2) and all(\$u[]; .contacts | length == 2)
    and ([\$u[].credits.spent_by_this_call] | add) == $CHARGED and \$u[1].credits.replayed == $3
    and ([\$u[].credits.spent_in_run] | max) == $CHARGED"
}

# An unlock beyond Max Credits is refused before anything is sent, and the text the model gets says what to do.
refusal_has_remedy() {
  charged_during converse "$1" refusal "$(calls "$2" "$(unlock '$ids:0-8')")" "${3:-}" || return 1
  [ "$CHARGED" -eq 0 ] || { echo "the sandbox charged $CHARGED for a refused unlock" >&2; return 1; }
  conversation "$1" refusal '.calls[1].text | test("Max Credits") and test("charged"; "i")
    and test("(raise|increase) Max Credits|at most [0-9]+ (contact|id)|fewer (contact|id)"; "i")'
}

# job_change_gives_new_record <way> <country> <MCP path>: a contact unlocked in one session changes jobs; unlocked
# again in a new session it comes with the new title and company, and the answer reports what the sandbox charged.
job_change_gives_new_record() {
  local way="$1" id list now
  converse "$way" before-move "$(calls "$2" "$(unlock '$ids:0-1')")" "$3" || return 1
  id="$(jq -er "$ANSWER_JQ .calls[1] | answer | .contacts[0].id" "$WORK/$way-before-move.json")" &&
    list="$(sandbox -X POST "$SANDBOX_URL/v1/lists" \
      --data "$(jq -nc --arg id "$id" '{name: "Moves (agents e2e)", contact_ids: [$id]}')" | jq -er .id)" &&
    now="$(sandbox_admin -X POST "$SANDBOX_URL/_sandbox/events" --data "$(jq -nc --arg l "$list" --arg k "$SANDBOX_KEY" \
      '{type: "job_change", list_id: $l, count: 1, key: $k}')" | jq -ec '.events[0].changes.current')" || return 1
  charged_during converse "$way" after-move "$(jq -nc --argjson u "$(unlock "$id")" '[$u]')" "$3" || return 1
  conversation "$way" after-move "(.calls[0] | answer) as \$a | $now as \$now
    | \$a.contacts[0].id == \"$id\" and \$a.contacts[0].title == \$now.title and \$a.contacts[0].company == \$now.company.name
    and \$a.credits.spent_by_this_call == $CHARGED"
}

# The capped copy of the MCP example: Max Credits 5 a call, 6 per MCP session, 10 per day.
CAPPED_PATH=contact-data-capped
CAPS='.parameters.maxCredits = 5 | .parameters.options = {maxCreditsPerSession: 6, maxCreditsPerDay: 10}'
CAPPED_CHARGED=0
CAPPED_SESSIONS=""   # "<way> <country>: <charged>; …", for the figures

# One Streamable HTTP session unlocks 4 new contacts, then 4 more: together no more than the session's 6.
session_cap_holds() {
  charged_during converse http session "$(calls US:manager "$(unlock '$ids:0-4')" "$(unlock '$ids:4-8')")" "$CAPPED_PATH" || return 1
  CAPPED_CHARGED=$((CAPPED_CHARGED + CHARGED)) CAPPED_SESSIONS+="http US, 4 + 4: $CHARGED; "
  [ "$CHARGED" -gt 0 ] && [ "$CHARGED" -le 6 ] ||
    { echo "one MCP session was charged $CHARGED under Max Credits per MCP Session 6" >&2; return 1; }
  conversation http session '.calls[2].text | test("Max Credits per MCP Session")'
}

# day_cap_holds <way> <country>: a new session (a client reconnecting) unlocks 4 new contacts: everything the
# capped node charged today stays within its Max Credits per Day of 10.
day_cap_holds() {
  charged_during converse "$1" "day-${2/:/-}" "$(calls "$2" "$(unlock '$ids:0-4')")" "$CAPPED_PATH" || return 1
  CAPPED_CHARGED=$((CAPPED_CHARGED + CHARGED)) CAPPED_SESSIONS+="$1 $2, 4: $CHARGED; "
  [ "$CAPPED_CHARGED" -le 10 ] ||
    { echo "the node's MCP sessions were charged $CAPPED_CHARGED in all under Max Credits per Day 10" >&2; return 1; }
}
# Once the day's cap is used up, a new session's unlock is refused, naming the cap that applied.
day_cap_refuses_with_its_name() {
  day_cap_holds "$1" "$2" && conversation "$1" "day-${2/:/-}" '.calls[1].text | test("Max Credits per Day")'
}

# The AI agent example as shipped, its chat model pointed at the scripted model and its chat made public so a
# message can be posted: the model searches, unlocks 2 contacts (2 of its 10 credits) and the chat is answered.
# webhook_registered <url>: waits (up to 30 s) until n8n has registered the published workflow's webhook: on a
# busy machine activation answers before the webhook is in place, and a POST then gets 404 "not registered".
webhook_registered() {
  local tries=0
  while curl -sS -X GET "$1" 2>/dev/null | grep -q 'The requested webhook .* is not registered'; do
    tries=$((tries + 1))
    [ "$tries" -lt 60 ] || { echo "n8n did not register $1 within 30 s" >&2; return 1; }
    sleep 0.5
  done
}

agent_example_chats() {
  local webhook
  webhook="$(jq -r '.nodes[] | select(.type == "@n8n/n8n-nodes-langchain.chatTrigger") | .webhookId' examples/ai-agent-prospecting.json)"
  agents_publish examples/ai-agent-prospecting.json "$WITH_SCRIPTED_MODEL | .nodes |= map(
    if .type == \"@n8n/n8n-nodes-langchain.chatTrigger\" then .parameters += {public: true, mode: \"webhook\"} else . end)" ||
    return 1
  webhook_registered "$N8N_BASE/webhook/$webhook/chat" || return 1
  AGENT_URL="$N8N_BASE/webhook/$webhook/chat" \
    AGENT_BODY='{"action": "sendMessage", "sessionId": "e2e", "chatInput": "Unlock two VPs in Switzerland"}' \
    charged_during converse agent example "$(calls CH:vp "$(unlock '$ids:0-2')")" ||
    return 1
  [ "$CHARGED" -eq 2 ] || { echo "the example's chat was charged $CHARGED for 2 new contacts" >&2; return 1; }
  jq -e '.output | test("scripted conversation is over")' "$WORK/agent-example.answer" >/dev/null ||
    { echo "the chat answered: $(head -c 400 "$WORK/agent-example.answer")" >&2; return 1; }
  conversation agent example '.calls[1] | answer | (.contacts | length == 2 and all(.email != null or .linkedin_url != null)) and .credits.max_credits == 10'
}

# ---------------------------------------------------------------- figures
# What the model or client received for a search and an unlock (the repeat conversation), and the charge.
agents_figures() {
  local way
  for way in agent http sse; do
    [ -f "$WORK/$way-repeat.json" ] || continue
    jq -r --arg way "$way" --arg charged "$(cat "$WORK/$way-repeat.charged" 2>/dev/null)" "$ANSWER_JQ"'
      def shape: answer as $a | "\(.bytes) B, \($a.contacts // [] | length) contacts, \($a.contacts // [] | map(keys | length) | unique | map(tostring) | join("/")) fields";
      (first(.calls[] | select(.name | test("search"; "i"))) | shape) as $search
      | [.calls[] | select(.name | test("unlock"; "i"))] as $u
      | "  \($way): search \($search); unlock \($u[0] | shape), credits \($u[0] | answer | .credits | tojson); again \($u[1] | answer | (.credits // {error}) | tojson); sandbox charged \($charged)"' \
      "$WORK/$way-repeat.json" || return 1
  done
  echo "  capped MCP node (Max Credits 5, per MCP Session 6, per Day 10): sessions ${CAPPED_SESSIONS:-none}charged $CAPPED_CHARGED in all"
}

# ---------------------------------------------------------------- the checks
agents_publish_mcp_examples() {
  agents_publish_mcp "$MCP_PATH" e2e0 '.parameters.maxCredits = 5' && agents_publish_mcp "$CAPPED_PATH" ca90 "$CAPS"
}

agents_checks() {
  check "agents: the scripted model serves; the AI Agent workflow with the Contact Data tools (v2) publishes" agents_publish_agent
  check "agents: the MCP example publishes (as shipped, and a copy capped at 5 a call, 6 a session, 10 a day)" \
    agents_publish_mcp_examples
  check "AI Agent: the same unlock twice in one execution is charged once and reported once, as a replay" \
    repeat_is_charged_once agent FR 1
  check "AI Agent: the tools the model receives name the cost in Unlock's arguments (credits, capped), none for Search, Balance" \
    descriptions_name_cost agent repeat
  check "AI Agent: a refusal reaches the model with its remedy, nothing charged" refusal_has_remedy agent IN
  check "example: the AI agent example chats with the scripted model, searches and unlocks 2 contacts within its Max Credits" \
    agent_example_chats
  # Per transport: the countries of its repeat, refusal and job change scenarios, and its name.
  local way repeat refusal move name
  while read -r way repeat refusal move name <&3; do
    check "MCP ($name): the same unlock twice in one session is charged once and reported once" \
      repeat_is_charged_once "$way" "$repeat" 0 "$MCP_PATH"
    check "MCP ($name): the tools listed name the cost in Unlock's arguments" descriptions_name_cost "$way" repeat
    check "MCP ($name): a refusal reaches the client with its remedy, nothing charged" \
      refusal_has_remedy "$way" "$refusal" "$MCP_PATH"
    check "MCP ($name): an unlock after the contact changed jobs returns the new record, charged as reported" \
      job_change_gives_new_record "$way" "$move" "$MCP_PATH"
  done 3<<<$'http NL ES AU Streamable HTTP\nsse MX IT JP SSE'
  if agents_on_n8n_2; then
    check "MCP (Streamable HTTP): the calls of one session never together pass Max Credits per MCP Session" session_cap_holds
  else
    # No session id reaches the tool on 1.x: a session of its own spends part of the day instead.
    echo "  MCP Server Trigger 2.0 (n8n 1.x) hands the tool no session id: Max Credits per MCP Session not checked"
    check "MCP (Streamable HTTP): the calls never together pass Max Credits per Day" day_cap_holds http US:manager
  fi
  check "MCP (Streamable HTTP): after reconnecting, the calls never together pass Max Credits per Day" day_cap_holds http IN:manager
  check "MCP (Streamable HTTP): reconnecting again is refused, naming Max Credits per Day" \
    day_cap_refuses_with_its_name http GB:manager
  check "MCP (SSE, no visible session id): Max Credits per Day holds for it too" day_cap_holds sse DE:manager
  check "figures: what the model receives for a search and an unlock, per way in, and what was charged" agents_figures
}

# ---------------------------------------------------------------- run alone
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  cd "$(dirname "$0")/../.."
  source scripts/n8n/lib.sh
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/contact-data-agents.XXXXXX")"
  OWNER_EMAIL=agents@example.com
  OWNER_PASSWORD="Agents-$(date +%s)-Pw"
  checks_begin agents "$WORK" go-on
  CHECK_LOG_LINES=30
  echo "agents: work folder $WORK"
  read -r AGENTS_N8N_PORT AGENTS_BROKER_PORT <<<"$(free_ports 2)"
  check "install and start n8n $N8N_VERSION and the sandbox, set up the owner" \
    bring_up "$WORK" "$AGENTS_N8N_PORT" "$AGENTS_BROKER_PORT" 0 SANDBOX_CONTACTS=20000
  agents_checks
fi
