# The end-to-end check runs the examples with no outside service. The examples ship with their outside
# services (HubSpot, Slack) disabled, so they run as shipped; a node that would still call one when enabled
# (Slack, HubSpot, OpenAI, email) becomes a No Operation node of the same name, which passes its input on.
.nodes |= map(
  if (.disabled | not) and (.type | IN("n8n-nodes-base.slack", "n8n-nodes-base.hubspot", "n8n-nodes-base.emailSend",
                "@n8n/n8n-nodes-langchain.lmChatOpenAi"))
  then {id, name, position, type: "n8n-nodes-base.noOp", typeVersion: 1, parameters: {}}
  else . end)
