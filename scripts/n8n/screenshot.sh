#!/usr/bin/env bash
# Retakes the editor screenshots in docs/images/ from the browser journey of the end-to-end check
# (scripts/n8n/journey.mjs): starts n8n with the package (the same bring_up as the playground and the
# end-to-end check), then signs in with Debian's Chromium, driven by playwright-core, runs the
# example and saves the pictures on the way. Installs Chromium with apt-get when missing (as root).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/n8n/lib.sh

WORK="$(mktemp -d "${TMPDIR:-/tmp}/contact-data-screenshots.XXXXXX")"
OWNER_EMAIL=owner@example.com
OWNER_PASSWORD=Screenshot-n8n-1

ensure_chromium
trap 'stop_started; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
read -r n8n_port broker_port <<<"$(free_ports 2)"
bring_up "$WORK" "$n8n_port" "$broker_port" 0 SANDBOX_CONTACTS=150000
browser_journey docs/images
rm -f docs/images/failure.png
