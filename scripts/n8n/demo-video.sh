#!/usr/bin/env bash
# `npm run demo:video`: records the short single-take demo n8n's reviewers ask of a community package, on the
# sandbox: the package installed (as n8n installs a community package, shown in the nodes panel), the credential
# test passing, the main operations (search → unlock executed, its output, an over-budget error, a field dragged
# onto Contact ID Field) and the job change trigger firing. It is the browser journey of the end-to-end check
# (scripts/n8n/journey.mjs) with JOURNEY_VIDEO set, recorded by Playwright in Debian's Chromium. Writes
# build/demo/n8n-<version>/contact-data-demo.webm beside the journey's screenshots. N8N_LINE picks the n8n line.
# Never part of `npm test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/n8n/lib.sh

WORK="$(mktemp -d "${TMPDIR:-/tmp}/contact-data-demo.XXXXXX")"
OWNER_EMAIL=demo@example.com
OWNER_PASSWORD=Demo-n8n-1
OUT="build/demo/n8n-$N8N_VERSION"

# Playwright encodes its video with an ffmpeg of its own, which it would download: Debian's ffmpeg (installed
# when missing, as root) is put where Playwright looks for it, in a browsers folder of this run.
playwright_ffmpeg() {
  local revision
  if ! command -v ffmpeg >/dev/null && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "installing ffmpeg from Debian's packages" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ffmpeg; } >/dev/null
  fi
  command -v ffmpeg >/dev/null || { echo "the demo video needs ffmpeg: apt-get install -y ffmpeg" >&2; return 1; }
  revision="$(jq -er '.browsers[] | select(.name == "ffmpeg") | .revision' node_modules/playwright-core/browsers.json)"
  export PLAYWRIGHT_BROWSERS_PATH="$WORK/playwright"
  mkdir -p "$PLAYWRIGHT_BROWSERS_PATH/ffmpeg-$revision"
  ln -sf "$(command -v ffmpeg)" "$PLAYWRIGHT_BROWSERS_PATH/ffmpeg-$revision/ffmpeg-linux"
}

ensure_chromium
playwright_ffmpeg
trap 'stop_started; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
read -r n8n_port broker_port <<<"$(free_ports 2)"
echo "demo: n8n $N8N_VERSION and the sandbox are starting..."
bring_up "$WORK" "$n8n_port" "$broker_port" 0 SANDBOX_CONTACTS=150000
rm -rf "$OUT"
JOURNEY_VIDEO="$OUT" browser_journey "$OUT"
echo "demo: $OUT/contact-data-demo.webm"
