# Prepares an example workflow for this n8n instance (used with --arg credentialId, credentialName, filesDir):
# keeps only the fields the public API accepts, points every Contact Data node at the sandbox credential, and
# moves files written to n8n's default files folder (/home/node/.n8n-files in n8n's Docker image) to the
# folder this instance may write to (N8N_RESTRICT_FILE_ACCESS_TO).
{name, nodes, connections, settings: (.settings // {})}
| .nodes |= map(
    (if .credentials.contactDataApi then .credentials.contactDataApi = {id: $credentialId, name: $credentialName} else . end)
    | (if .type == "n8n-nodes-base.readWriteFile" and (.parameters.fileName | type) == "string"
       then .parameters.fileName |= sub("/home/node/\\.n8n-files"; $filesDir) else . end)
  )
