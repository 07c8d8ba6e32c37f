"""benchmarks/bench_datasets.py writes the dataset folder it says: every unit judged by its share of
distinct raters on four questions, raters with three dimensions, a folder `dwh ingest --dataset`
lands without a reject (its speed is measured by the benchmark, never here)."""

import importlib.util
from pathlib import Path

import pytest

from tests.helpers import PROJECT_ROOT, query, run_dwh


@pytest.fixture(scope="module")
def bench_datasets():
    spec = importlib.util.spec_from_file_location("bench_datasets", PROJECT_ROOT / "benchmarks" / "bench_datasets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("file_format", ["csv", "parquet"])
def test_the_bench_folder_lands_every_judgement(bench_datasets, tmp_path: Path, file_format: str) -> None:
    folder = bench_datasets.write_folder(
        tmp_path / "bench", units=12, raters=20, per_unit=5, file_format=file_format, seed=1
    )
    db_path = tmp_path / "warehouse.duckdb"
    run_dwh(["ingest", "--dataset", str(folder)], db_path, check=True)
    assert query(db_path, "select count(*) from raw.ingest_rejects") == [(0,)]
    assert query(db_path, "select count(*), count(distinct unit_id) from raw.dataset_judgements") == [(12 * 5 * 4, 12)]
    assert query(
        db_path,
        "select min(raters), max(raters) from (select unit_id, count(distinct rater_id) as raters "
        "from raw.dataset_judgements group by 1)",
    ) == [(5, 5)]
    assert query(db_path, "select dimensions from raw.dataset_manifests") == [(["age", "gender", "country"],)]
