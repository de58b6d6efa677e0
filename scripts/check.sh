#!/usr/bin/env bash
# make check: the quick loop for a change. Formats, lints and tests only
# the crates the change touches (against BASE, HEAD by default, untracked
# files included) and the crates that depend on them: a change in
# remis-core tests core, table, report and the binary; a change in the
# report only the report and the binary. `make test` stays the whole run.
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO=${CARGO:-cargo}
BASE=${BASE:-HEAD}

changed=$( { git diff --name-only "$BASE"; git ls-files --others --exclude-standard; } | sort -u)
if [ -z "$changed" ]; then
    echo "make check: nothing changed against $BASE; nothing to test (make test runs everything)"
    exit 0
fi

# The crates stack one way (core -> table -> report -> binary): a crate's
# change reaches every crate above it.
level=0
while IFS= read -r path; do
    case "$path" in
        crates/core/*) l=4 ;;
        crates/table/*) l=3 ;;
        crates/report/*) l=2 ;;
        src/*|tests/*|build.rs|Cargo.toml|Cargo.lock|examples/*|data/*) l=1 ;;
        *) l=0 ;;
    esac
    [ "$l" -gt "$level" ] && level=$l
done <<< "$changed"

packages=()
[ "$level" -ge 4 ] && packages+=(-p remis-core)
[ "$level" -ge 3 ] && packages+=(-p remis-table)
[ "$level" -ge 2 ] && packages+=(-p remis-report)
[ "$level" -ge 1 ] && packages+=(-p remis)
if [ ${#packages[@]} -eq 0 ]; then
    echo "make check: no Rust crate touched (docs, scripts, notebooks?): nothing to test here; make test runs everything"
    exit 0
fi

echo "make check: testing ${packages[*]} (changes against $BASE)"
"$CARGO" fmt --all --check
"$CARGO" clippy "${packages[@]}" --all-targets -- -D warnings
"$CARGO" test "${packages[@]}" --all-targets
