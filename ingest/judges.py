"""Reading judges' judgements (`dwh ingest --judges PATH …`): files of one row per judgement, found
by ingest/judge_files.py and read by the one long-form reader (ingest/long_form/: CSV with a header,
JSONL, Parquet, with its lines and its answers to bad input) into one scratch table of text,
`temp.judge_input` (file, line, the five fields, the reason a row cannot be read, the row's text),
then checked and landed in SQL (ingest/judge_landing.py): memory stays within DuckDB's bound as the
files grow.
"""

import duckdb

from common.sources import movie_keyed_titles
from ingest.long_form import FileKind, LongFormFile
from ingest.long_form.reading import create_input_table, read_rows

SOURCE = "judge"  # the name of judges' loads in raw.ingest_loads and raw.ingest_rejects
FILES_HINT = "a judges file is CSV with a header (.csv), JSONL (.jsonl) or Parquet (.parquet)"
JUDGES_FILE = FileKind(
    name="judges",
    needed=("judge", "dialogue_key", "question", "value"),
    hint="a judges file has the columns judge, dialogue_key, question, value "
    f"(and movie_id for {movie_keyed_titles()})",
    csv_name="a judges CSV",
)
FIELDS = ("judge", "dialogue_key", "question", "movie_id", "value")
INPUT_TABLE = "judge_input"


def read_judges_files(con: duckdb.DuckDBPyConnection, files: list[LongFormFile]) -> None:
    """Every judges file's rows into temp.judge_input, in the order given."""
    create_input_table(con, INPUT_TABLE, FIELDS)
    for file_order, found in enumerate(files):
        read_rows(con, found, FIELDS, INPUT_TABLE, file_order)
