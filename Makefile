# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DWH := $(BIN)/dwh
SAMPLE_DIR := data/sample
# sqlfluff's dbt templater compiles the project against a scratch database, never the warehouse
LINT_DB := $(CURDIR)/target/lint.duckdb

.PHONY: install demo test lint docs bench bench-large clean browser

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

demo: install
	$(DWH) sample --force $(SAMPLE_DIR)
	$(DWH) ingest --duo $(SAMPLE_DIR)/duo --redial $(SAMPLE_DIR)/redial/redial_dataset.zip --dices $(SAMPLE_DIR)/dices
	$(DWH) build
	$(DWH) summary
	$(DWH) report

test: install browser
	$(BIN)/python -m pytest
	$(MAKE) lint

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	mkdir -p target
	DWH_DB_PATH=$(LINT_DB) $(BIN)/sqlfluff lint models tests_dbt
	# the semantic layer's own rules (the pytest suite also validates it against a built warehouse)
	DWH_DB_PATH=$(LINT_DB) DBT_TARGET_PATH=$(CURDIR)/target/lint $(BIN)/mf validate-configs --skip-dw

# The browser tests open the report and the docs page in Debian's chromium (driven by Playwright,
# which uses this browser and downloads none); a clean machine gets it from Debian here.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests (apt-get, about a minute)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# dbt's documentation site as one offline page (overview, lineage, every column), from the
# built warehouse `make demo` leaves (or DWH_DB_PATH).
docs: install
	@test -f "$${DWH_DB_PATH:-data/warehouse.duckdb}" || { echo "make docs: no warehouse yet; run make demo first" >&2; exit 1; }
	$(BIN)/dbt docs generate --static --quiet
	@echo "docs: $(CURDIR)/target/static_index.html"

# The four ingest paths at scale 1 and 10, each run 3 times; writes BENCHMARKS.md (takes a while).
bench: install
	$(BIN)/python benchmarks/run_benchmarks.py --scales 1 10 --runs 3 --data-dir benchmarks/data --output BENCHMARKS.md

# `dwh sample`, `dwh ingest` and `dwh build` at scales 1, 10 and 30 with the default memory bounds, one run
# each: how time and peak memory grow (scale 30 writes ~2.3 GB of sample and needs ~15 GB of disk in all).
# Not part of `make bench`; writes its own section of BENCHMARKS.md (<!-- bench-large:start -->).
bench-large: install
	$(BIN)/python benchmarks/run_benchmarks.py --scales 1 10 30 --runs 1 --paths sample ingest build \
		--section bench-large --data-dir benchmarks/data --output BENCHMARKS.md

clean:
	rm -rf target logs data/sample .pytest_cache
