# The end-to-end check runs the examples with no outside service: each node that would call one (Slack,
# HubSpot, OpenAI, email) becomes a No Operation node of the same name, which passes its input on, so the
# check can assert on what would have been sent.
.nodes |= map(
  if .type | IN("n8n-nodes-base.slack", "n8n-nodes-base.hubspot", "n8n-nodes-base.emailSend",
                "@n8n/n8n-nodes-langchain.lmChatOpenAi")
  then {id, name, position, type: "n8n-nodes-base.noOp", typeVersion: 1, parameters: {}}
  else . end)
