# remis — make run: classify the sample data and write a report; make test:
# every test a fresh machine can run. See README.md.

CARGO ?= cargo
PYTHON ?= python3
VENV ?= .venv
REMIS_DEBUG = target/debug/remis
REMIS_RELEASE = target/release/remis
SHARED ?= ../shared/data
SAMPLE_OUT = reports/sample

.PHONY: all build release run test lint validate bench sample clean

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

test: build
	$(CARGO) test --all-targets

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings

# Classify every collection in ../shared/data (absent on a user's machine).
validate: release
	scripts/validate.sh $(SHARED)

sample: build
	$(REMIS_DEBUG) generate --games 3000 --seed 1 --out data/sample/generated-3000.pgn.zst

clean:
	$(CARGO) clean
	rm -rf $(SAMPLE_OUT)
