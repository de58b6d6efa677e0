#!/usr/bin/env bash
# Installs what the tests need beyond the Rust toolchain: Debian's chromium
# and chromedriver (browser test of the report) and a Python virtual
# environment with the pinned requirements (browser test, notebooks).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
    || ! command -v pdftotext >/dev/null || ! command -v pzstd >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing chromium, chromium-driver and poppler-utils (pdftotext) from Debian"
    # apt's chatter (debconf notes) only when it fails.
    log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        chromium chromium-driver poppler-utils zstd; } >"$log" 2>&1; then
      cat "$log" >&2
      rm -f "$log"
      exit 1
    fi
    rm -f "$log"
  else
    echo "setup: the browser and print tests need Debian's chromium, chromium-driver and poppler-utils:" >&2
    echo "       sudo apt-get install chromium chromium-driver poppler-utils zstd" >&2
    exit 1
  fi
fi

stamp="$VENV/.requirements"
wanted=$(cat requirements-dev.txt tests/browser/requirements.txt notebooks/requirements.txt | sha256sum | cut -c1-16)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "setup: creating $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check \
    -r requirements-dev.txt
  echo "$wanted" > "$stamp"
fi
