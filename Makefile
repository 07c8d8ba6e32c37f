# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DWH := $(BIN)/dwh
SAMPLE_DIR := data/sample
# sqlfluff's dbt templater compiles the project against a scratch database, never the warehouse
LINT_DB := $(CURDIR)/target/lint.duckdb

.PHONY: install demo test test-explore pytest-all test-fast pytest-fast unit-tests-dbt lint lint-python docs bench bench-large bench-datasets clean browser

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

demo: install
	$(DWH) sample --force $(SAMPLE_DIR)
	$(DWH) ingest --duo $(SAMPLE_DIR)/duo --redial $(SAMPLE_DIR)/redial/redial_dataset.zip --dices $(SAMPLE_DIR)/dices --dataset $(SAMPLE_DIR)/datasets/chatbot_study
	$(DWH) build
	$(DWH) ingest --judges $(SAMPLE_DIR)/judges
	$(DWH) build
	$(DWH) summary
	$(DWH) report

# Every test (CI runs this): pytest in two workers, one per core (pytest-xdist; a test module stays
# in one worker, and the shared warehouses are built once per run: tests/conftest.py), and the
# linters beside them (their few lines may interleave with pytest's; output is not held back, so CI
# sees progress).
test: install browser
	$(MAKE) -j2 pytest-all lint

# The tests' numerics run as the build's: `dwh build` runs dbt with one BLAS thread (agreement_core/parallel.py).
# Python keeps its bytecode (in __pycache__/, which git ignores) even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): else every pytest worker rewrites and compiles every test module again, and
# every `dwh` process the tests start compiles the project (about 3 s of `make test-fast`, BENCHMARKS.md).
KEEP_BYTECODE := PYTHONDONTWRITEBYTECODE=
pytest-all: install
	$(KEEP_BYTECODE) OPENBLAS_NUM_THREADS=1 $(BIN)/python -m pytest -n 2 --dist loadfile --durations=10

# The property tests with fresh random examples, shrunk when they fail (make test runs them derandomized:
# the same examples each run). A failure here is a finding: keep its case as an @example.
test-explore: install
	HYPOTHESIS_PROFILE=explore $(BIN)/python -m pytest -n 2 --dist loadfile -q tests/agreement/test_agreement_marts.py tests/agreement/test_agreement_reference_selfcheck.py tests/ingest/test_ingest_properties.py tests/datasets/test_datasets_properties.py tests/marts/test_unique_test.py

# Before each commit, the quick part: the tests that need no dbt build (pytest -m "not slow and not
# browser"; markers in pyproject.toml), dbt's unit tests on an empty scratch warehouse, and ruff.
test-fast: install
	$(MAKE) -j2 --output-sync=target pytest-fast unit-tests-dbt lint-python

# two workers, the tests dealt out one by one (no shared build to keep a module beside)
pytest-fast: install
	$(KEEP_BYTECODE) OPENBLAS_NUM_THREADS=1 $(BIN)/python -m pytest -q -n 2 -m "not slow and not browser"

# dbt's unit tests need their models' parents to exist, not to hold data: one `dbt build` builds them
# empty (`--empty`) in a scratch warehouse that holds the raw tables, no rows, each unit test before
# the model it tests (a failing one skips what depends on that model). The scratch warehouse is new
# each time; the folder keeps dbt's last parse, so a second run parses only what changed.
UNIT_DB := $(CURDIR)/target/unit/warehouse.duckdb
unit-tests-dbt: install
	mkdir -p target/unit && rm -f $(UNIT_DB) $(UNIT_DB).wal
	$(BIN)/python -c "import sys; from pathlib import Path; from common.database import connect; from ingest.raw_schema import ensure_raw_schema; \
		con = connect(Path(sys.argv[1])); ensure_raw_schema(con); con.close()" $(UNIT_DB)
	DWH_DB_PATH=$(UNIT_DB) DBT_TARGET_PATH=$(CURDIR)/target/unit $(BIN)/dbt build --empty --select "+test_type:unit" --exclude resource_type:test

lint: lint-python
	mkdir -p target
	DWH_DB_PATH=$(LINT_DB) DBT_TARGET_PATH=$(CURDIR)/target/sqlfluff $(BIN)/sqlfluff lint models tests_dbt
	# the semantic layer's own rules (the pytest suite also validates it against a built warehouse);
	# mf reads target/semantic_manifest.json whatever DBT_TARGET_PATH says, so the parse's copy is moved there
	DWH_DB_PATH=$(LINT_DB) DBT_TARGET_PATH=$(CURDIR)/target/lint $(BIN)/dbt parse --quiet
	cp target/lint/semantic_manifest.json target/semantic_manifest.json.lint
	mv target/semantic_manifest.json.lint target/semantic_manifest.json
	DWH_DB_PATH=$(LINT_DB) DBT_TARGET_PATH=$(CURDIR)/target/lint $(BIN)/mf validate-configs --skip-dw

lint-python: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The browser tests open the report and the docs page in Debian's chromium (driven by Playwright,
# which uses this browser and downloads none); a clean machine gets it from Debian here.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests (apt-get, about a minute)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# dbt's documentation site as one offline page (overview, lineage, every column), from the
# built warehouse `make demo` leaves (or DWH_DB_PATH), opened read-only (BI tools may hold it meanwhile);
# a missing warehouse or a failure is one line naming the path (dwh/building/docs.py)
docs: install
	@$(DWH) docs

# Every path at scale 1 and 10 (the twenty judges' at scale 1 only), each run 3 times; writes BENCHMARKS.md
# (hours: a scale-10 build takes about 6.5 minutes, the twenty judges' build at scale 1 about 8.5).
bench: install
	$(BIN)/python benchmarks/run_benchmarks.py --scales 1 10 --runs 3 --data-dir benchmarks/data --output BENCHMARKS.md

# `dwh sample`, `dwh ingest` and `dwh build` at scales 1, 10 and 30 with the default memory bounds, one run
# each: how time and peak memory grow (scale 30 writes ~2.3 GB of sample and needs ~15 GB of disk in all).
# Not part of `make bench`; writes its own section of BENCHMARKS.md (<!-- bench-large:start -->).
bench-large: install
	$(BIN)/python benchmarks/run_benchmarks.py --scales 1 10 30 --runs 1 --paths sample ingest build \
		--section bench-large --data-dir benchmarks/data --output BENCHMARKS.md

# `dwh ingest --dataset` of a dataset folder of 1,000,000 judgements (10,000 units x 25 of 100 raters x 4
# questions, 3 rater dimensions), 3 runs: issue 53's target is <= 30 s and <= 1 GiB. Writes its own section of
# BENCHMARKS.md (<!-- bench-datasets:start -->); not part of `make bench`.
bench-datasets: install
	$(BIN)/python benchmarks/bench_datasets.py --runs 3 --data-dir benchmarks/data --output BENCHMARKS.md

clean:
	rm -rf target logs data/sample .pytest_cache
