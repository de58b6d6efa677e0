#!/usr/bin/env bash
# make bench: installs the peers (Debian's pgn-extract, python-chess in the
# project venv), builds remis and the bare replay loop in release mode, and
# runs scripts/bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/games/pgn-extract ] && ! command -v pgn-extract >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgn-extract zstd >/dev/null
  else
    echo "bench: needs Debian's pgn-extract: sudo apt-get install pgn-extract" >&2
    exit 1
  fi
fi
cargo build --release --bin remis --example bare_replay
exec "${VENV:-.venv}/bin/python" scripts/bench.py "$@"
