"""Benchmark path (d): the floor — DuckDB alone landing the same files as text tables.

    python benchmarks/duckdb_floor.py DATABASE SAMPLE_DIR

No parsing beyond what the file format needs, no validation, no lineage: the least work that
puts every byte of the releases into DuckDB tables (created or replaced), so `dwh ingest` can be
compared against it.

- DUO: `raw_duo_files(filename, content)` from `read_text('<duo>/*/*/*.json')`, one row per file.
- ReDial: the zip's members are extracted to a temporary folder with `zipfile`; each JSONL file
  becomes one VARCHAR `line` per physical line via `read_csv` with a delimiter byte that never
  occurs (chr(1)), no quote and no escape (a CRLF's "\\r" is dropped, a blank line is NULL).
  Measured at scale 1 this is ~8x faster than `read_text` + `string_split`.
  movies_with_mentions.csv is read with `read_csv(all_varchar=true, header=true)`.
- DICES: `read_csv(all_varchar=true, header=true)` per CSV.
"""

import sys
import tempfile
import zipfile
from pathlib import Path

import duckdb

REDIAL_ZIP = Path("redial") / "redial_dataset.zip"
REDIAL_SPLITS = {"train_data.jsonl": "raw_redial_train", "test_data.jsonl": "raw_redial_test"}
REDIAL_MOVIES = "movies_with_mentions.csv"

LINES_SQL = """
create or replace table "{table}" as
select line from read_csv(?, columns = {{'line': 'VARCHAR'}}, header = false, delim = chr(1),
    quote = '', escape = '', auto_detect = false, strict_mode = false)
"""
TEXT_CSV_SQL = 'create or replace table "{table}" as select * from read_csv(?, all_varchar = true, header = true)'
DUO_SQL = "create or replace table raw_duo_files as select filename, content from read_text(?)"


def land_duo(con: duckdb.DuckDBPyConnection, duo_dir: Path) -> None:
    """Every DUO JSON file as one text row."""
    con.execute(DUO_SQL, [str(duo_dir / "*" / "*" / "*.json")])


def land_redial(con: duckdb.DuckDBPyConnection, zip_path: Path) -> None:
    """Extract the zip, then land each JSONL file as lines and the movie list as a text CSV."""
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as scratch, zipfile.ZipFile(zip_path) as archive:
        for info in archive.infolist():
            name = info.filename.rsplit("/", 1)[-1]
            if name in REDIAL_SPLITS:
                path = archive.extract(info, scratch)
                con.execute(LINES_SQL.format(table=REDIAL_SPLITS[name]), [path])
            elif name == REDIAL_MOVIES:
                path = archive.extract(info, scratch)
                con.execute(TEXT_CSV_SQL.format(table="raw_redial_movies"), [path])


def land_dices(con: duckdb.DuckDBPyConnection, dices_dir: Path) -> None:
    """Every DICES CSV below the folder as a table of text columns."""
    for path in sorted(dices_dir.rglob("*.csv")):
        table = "raw_dices_" + path.stem.rsplit("_", 1)[-1]
        con.execute(TEXT_CSV_SQL.format(table=table), [str(path)])


def land(database: Path, sample_dir: Path) -> dict[str, int]:
    """Land every release under `sample_dir` into `database`; rows per table."""
    con = duckdb.connect(str(database))
    try:
        steps = [(land_duo, "duo"), (land_redial, REDIAL_ZIP), (land_dices, "dices")]
        for step, relative in steps:
            if (sample_dir / relative).exists():
                step(con, sample_dir / relative)
        tables = [row[0] for row in con.execute("select table_name from duckdb_tables() order by 1").fetchall()]
        return {table: con.execute(f'select count(*) from "{table}"').fetchone()[0] for table in tables}
    finally:
        con.close()


def main(argv: list[str]) -> int:
    """`duckdb_floor.py DATABASE SAMPLE_DIR`: land everything and print rows per table."""
    if len(argv) != 2:
        print("usage: duckdb_floor.py DATABASE SAMPLE_DIR", file=sys.stderr)
        return 2
    for table, rows in land(Path(argv[0]), Path(argv[1])).items():
        print(f"{table}\t{rows}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
