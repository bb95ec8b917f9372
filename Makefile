# Two commands on a fresh machine (Python 3.11+, pip, Debian/PyPI registries):
#   make run    set everything up, then validate, ingest and audit sample_logs/ and open the dashboard
#   make check  set everything up, then pass the static checks and the whole suite (what .ci/run calls)
#   make test   the same without the static checks
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
DB ?= tarock.duckdb
PORT ?= 8501

.PHONY: setup browser run test test-fast lint check bench clean fuzz

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,oracle,dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

setup: $(STAMP)

# Debian's Chromium for the browser test (never a downloaded browser).
browser:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; fi; }

# the demo store: every sample meant to be audited (malformed/ is for `tarock validate`)
DEMO := sample_logs --exclude malformed

# exit 1 of the audit is its findings (the planted disputes), not a failure of the demo
run: setup
	$(BIN)/tarock validate $(DEMO)
	$(BIN)/tarock ingest $(DEMO) --db $(DB)
	$(BIN)/tarock audit $(DEMO) --summary || test $$? -eq 1
	@echo
	@echo "Where to look: the five planted disputes of sample_logs/disputed/ (its README lists them)"
	@echo "  on the dashboard's Audit page (http://127.0.0.1:$(PORT)/audit), or:"
	@echo "  $(BIN)/tarock audit sample_logs/disputed"
	@echo
	$(BIN)/tarock dashboard --db $(DB) --port $(PORT)

test: setup browser
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q --durations=30

test-fast: setup
	$(BIN)/python -m pytest -n 2 -q -m "not slow and not browser"

# format, lint, types and the import contracts (what CI runs before the tests)
lint: setup
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# everything a change must pass: the static checks, then the whole suite
check: lint test

# the reader's long fuzz run (benchmarks/fuzz.py): FUZZ_MUTANTS mutated logs, at low priority
FUZZ_MUTANTS ?= 1000000
FUZZ_SEED ?= 1
fuzz: setup
	nice -n 19 $(BIN)/python benchmarks/fuzz.py --mutants $(FUZZ_MUTANTS) --seed $(FUZZ_SEED)

bench: setup
	$(BIN)/tarock bench

clean:
	rm -rf $(VENV) .pytest_cache $(DB)
