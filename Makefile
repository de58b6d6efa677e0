# remis — make run: classify the sample data and write a report; make test:
# every test a fresh machine can run. See README.md.

CARGO ?= cargo
PYTHON ?= python3
VENV ?= .venv
# Where cargo builds: target/, or CARGO_TARGET_DIR when it is set.
BUILD_DIR := $(or $(CARGO_TARGET_DIR),target)
REMIS_DEBUG = $(BUILD_DIR)/debug/remis
REMIS_RELEASE = $(BUILD_DIR)/release/remis
SHARED ?= ../shared/data
SAMPLE_OUT = reports/sample
SAMPLE_GAMES = 3,820

TEST_OUT = target/test-report
# The Rust tests' temporary folders: emptied before the tests, and a test
# that leaves anything there fails the run (they used to pile up in /tmp).
TEST_TMP = $(abspath $(BUILD_DIR))/test-tmp

.PHONY: sofia-demo doc-figures all build release setup run test check lint validate bench bench-hostile bench-report fuzz scale-test published-figures sample test-data clean

all: build

build:
	$(CARGO) build

release:
	$(CARGO) build --release

# The main job on the embedded sample: real lichess games (CC0) in data/.
run: build
	$(REMIS_DEBUG) classify data --out $(SAMPLE_OUT)
	$(REMIS_DEBUG) report $(SAMPLE_OUT) --out $(SAMPLE_OUT)/report.html \
		--title "remis sample report: $(SAMPLE_GAMES) lichess games, 2018-2025"
	$(REMIS_DEBUG) stats $(SAMPLE_OUT) --by-band
	@echo
	@echo "table:  $(SAMPLE_OUT)/games.parquet"
	@echo "report: $(SAMPLE_OUT)/report.html  (open it in a browser: xdg-open $(SAMPLE_OUT)/report.html)"

# The maintainer's checks (part of make test, so of CI): formatting, clippy
# with warnings as errors, and the API docs without a broken link.
lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

# The quick loop for a change: format, clippy and the Rust tests of the
# crates the change touches and of those above them (scripts/check.sh).
# Not a substitute for make test, which CI runs.
check:
	CARGO=$(CARGO) scripts/check.sh

# System packages and the Python environment the tests need.
setup:
	VENV=$(VENV) scripts/setup.sh

# Every test that needs only this repository (and, through setup, Debian's
# chromium and a Python venv): Rust tests, the browser test of the sample
# report and of a report on generated games, and the notebooks.
test: build setup lint
	rm -rf $(TEST_TMP) && mkdir -p $(TEST_TMP)
	TMPDIR=$(TEST_TMP) $(CARGO) test --workspace --all-targets
	# --all-targets does not run the doctests.
	TMPDIR=$(TEST_TMP) $(CARGO) test --workspace --doc
	@left=$$(ls -A $(TEST_TMP)); if [ -n "$$left" ]; then \
		echo "make test: the tests left these in $(TEST_TMP):"; echo "$$left"; exit 1; fi
	$(REMIS_DEBUG) classify data --out $(TEST_OUT)/sample
	$(REMIS_DEBUG) report $(TEST_OUT)/sample --out $(TEST_OUT)/sample/report.html
	$(REMIS_DEBUG) classify tests/data/synthetic-3000.pgn.zst --out $(TEST_OUT)/synthetic
	# Generated opponents are drawn apart at random (60% are over 200 points
	# apart): bands by the lower rating keep enough games for every chart.
	$(REMIS_DEBUG) report $(TEST_OUT)/synthetic --events tests/data/events-synthetic.toml --play all \
		--elo-basis min --out $(TEST_OUT)/synthetic/report.html
	REMIS_REPORT=$(TEST_OUT)/sample/report.html REMIS_SYNTHETIC_REPORT=$(TEST_OUT)/synthetic/report.html \
		REMIS_SCREENSHOT=$(TEST_OUT)/report.png $(VENV)/bin/python -m pytest -q tests/browser
	# remis explain's trails against an independent replay (python-chess).
	REMIS=$(REMIS_DEBUG) $(VENV)/bin/python -m pytest -q tests/python
	REMIS=$(REMIS_DEBUG) $(VENV)/bin/python notebooks/run_notebooks.py $(TEST_OUT)/sample/games.parquet
	# The sample has none of the catalogue's events: the rule-study notebook
	# reproduces remis's estimates on the generated games and their catalogue.
	REMIS=$(REMIS_DEBUG) REMIS_EVENTS=tests/data/events-synthetic.toml $(VENV)/bin/python \
		notebooks/run_notebooks.py $(TEST_OUT)/synthetic/games.parquet sofia_rules

# What remis sofia prints, on generated games (not real events) and a
# made-up catalogue that names two of their series: a demonstration only.
sofia-demo: build
	$(REMIS_DEBUG) classify tests/data/synthetic-3000.pgn.zst --out $(SAMPLE_OUT)-generated 2>/dev/null
	@echo "remis sofia on 3,000 GENERATED games (random legal moves between invented players;"
	@echo "the figures show the tool at work and say nothing about chess):"
	$(REMIS_DEBUG) sofia $(SAMPLE_OUT)-generated --events tests/data/events-synthetic.toml

# Classify every collection in ../shared/data (absent on a user's machine).
validate: release setup
	$(CARGO) build --release -p remis-core --example dead_consistency --example chasolver_check
	REMIS=$(REMIS_RELEASE) DEAD_CONSISTENCY=$(BUILD_DIR)/release/examples/dead_consistency \
		CHASOLVER_CHECK=$(BUILD_DIR)/release/examples/chasolver_check \
		VENV=$(VENV) scripts/validate.sh $(SHARED)
	REMIS=$(REMIS_RELEASE) $(VENV)/bin/python scripts/doc_figures.py --check $(SHARED)

# The figures docs/report.md cites, from the master games, by this build
# (docs/figures.md); make validate fails when that page is stale.
doc-figures: release setup
	REMIS=$(REMIS_RELEASE) $(VENV)/bin/python scripts/doc_figures.py $(SHARED)

# Speed and memory against the bare replay loop, pgn-extract and python-chess.
bench: setup
	VENV=$(VENV) scripts/bench.sh

# remis report and stats over 1, 10 and 100 shards of a real table, from
# rows and from summaries; Parquet input against PGN (docs/performance.md).
bench-report: release setup
	REMIS=$(REMIS_RELEASE) $(VENV)/bin/python scripts/bench_report.py --shared $(SHARED)

# Time and memory on hostile inputs at 1x, 2x and 4x their size.
bench-hostile: release
	$(PYTHON) scripts/hostile_bench.py

# A local Ray cluster classifies the sample in 8 shards; its dataset must
# equal a single run (docs/scale.md). Not part of make test: it installs Ray.
scale-test: build setup
	REMIS=$(REMIS_DEBUG) VENV=$(VENV) scripts/scale_test.sh

# A long run of the reader's property tests on new random cases (make test
# runs the same 1,000 every time, from a fixed seed).
FUZZ_CASES ?= 200000
fuzz:
	PROPTEST_CASES=$(FUZZ_CASES) $(CARGO) test --release -p remis-core --test reader_properties

# The TWIC 1999-2002 draw-rate figure: make published-figures TWIC="folder or files".
TWIC ?= $(SHARED)/twic
published-figures: release setup
	$(VENV)/bin/python scripts/published_figures.py $(TWIC)

# Rebuild data/lichess-sample.pgn.zst from ../shared/data/lichess.
sample:
	$(PYTHON) scripts/make_sample.py $(SHARED)

# Rebuild the generated games the tests use.
test-data: build
	$(REMIS_DEBUG) generate --games 3000 --seed 1 --out tests/data/synthetic-3000.pgn.zst

clean:
	$(CARGO) clean
	rm -rf $(SAMPLE_OUT)
