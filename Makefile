# remis — make run: classify the sample data and write a report; make test:
# every test a fresh machine can run. See README.md.

CARGO ?= cargo
PYTHON ?= python3
VENV ?= .venv
REMIS_DEBUG = target/debug/remis
REMIS_RELEASE = target/release/remis
SHARED ?= ../shared/data
SAMPLE_OUT = reports/sample

TEST_OUT = target/test-report

.PHONY: all build release setup run test lint validate bench sample clean

all: build

build:
	$(CARGO) build

release:
	$(CARGO) build --release

# The main job on the embedded sample: classify, then report.
run: build
	$(REMIS_DEBUG) classify data tests/fixtures --out $(SAMPLE_OUT)
	$(REMIS_DEBUG) report $(SAMPLE_OUT) --out $(SAMPLE_OUT)/report.html --title "remis sample report"
	$(REMIS_DEBUG) stats $(SAMPLE_OUT) --by-band
	@echo "table: $(SAMPLE_OUT)/games.parquet  report: $(SAMPLE_OUT)/report.html"

# System packages and the Python environment the tests need.
setup:
	VENV=$(VENV) scripts/setup.sh

test: build setup
	$(CARGO) test --all-targets
	$(REMIS_DEBUG) classify data tests/fixtures --out $(TEST_OUT)
	$(REMIS_DEBUG) report $(TEST_OUT) --out $(TEST_OUT)/report.html
	REMIS_REPORT=$(TEST_OUT)/report.html REMIS_SCREENSHOT=$(TEST_OUT)/report.png \
		$(VENV)/bin/python -m pytest -q tests/browser

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings

# Classify every collection in ../shared/data (absent on a user's machine).
validate: release setup
	VENV=$(VENV) scripts/validate.sh $(SHARED)

# Speed and memory against the bare replay loop, pgn-extract and python-chess.
bench: setup
	VENV=$(VENV) scripts/bench.sh

sample: build
	$(REMIS_DEBUG) generate --games 3000 --seed 1 --out data/sample/generated-3000.pgn.zst

clean:
	$(CARGO) clean
	rm -rf $(SAMPLE_OUT)
