"""One reader for every long-form file: a judges file (`dwh ingest --judges`, ingest/judges.py) and
a dataset's judgements, raters and units files (`dwh ingest --dataset`, ingest/datasets/), one row
per judgement (rater, unit), CSV with a header, JSONL or Parquet, with one set of answers to bad
input, whichever command reads the file:

- columns.py: the columns a file offers (a CSV's header, a Parquet file's top-level columns, the
  keys of a JSONL file's lines); a file without a needed column, with two columns whose names
  differ only in case, a column without a name or one named as the scratch tables' own columns is
  one line naming the file and the cause where it shows (a header in another case or with a blank,
  another delimiter, columns inside a Parquet struct), and nothing is loaded;
- reading.py: a file's rows read with DuckDB's readers into a scratch table of text, each with its
  line and, where it cannot be read, the reason (a row of raw.ingest_rejects while the rest loads:
  a CSV record the reader cannot split; a blank JSONL line, one that is no JSON object, or an
  object giving a key twice); a file the reader refuses is one line, naming the first line of each
  kind for a CSV whose lines end in both LF and CRLF (lines.py);
- second_values.py: of several values for one key, the first counts and the others are rejects
  naming it (ingest/sql/long_form/second_values.sql).

Lines: CSV the file's line with the header as line 1 (a record is taken to be one line); JSONL the
physical line, whether it ends in LF or CRLF, both in one file alike; Parquet the row number from 1.
Values are text as given: a JSON number as its text, a JSON list or object as its JSON text.
"""

from dataclasses import dataclass
from pathlib import Path

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
NOTHING = "nothing was loaded"


@dataclass(frozen=True)
class FileKind:
    """What a kind of long-form file holds, for the lines that answer a file without it: its name,
    the columns it needs, the hint naming its columns, what its CSV is called (`a judges CSV`), and
    whether a CSV header's names are read trimmed (a dataset's files) or as written (a judges file,
    whose `judge ` is named as a column with a blank)."""

    name: str
    needed: tuple[str, ...]
    hint: str
    csv_name: str
    trims_header: bool = False


@dataclass(frozen=True)
class LongFormFile:
    """A long-form file recognised: where it is, how it is recorded (`file_path` in raw tables and
    raw.ingest_rejects), its kind's name, its format and its columns."""

    path: Path
    file_path: str
    kind: str
    file_format: str
    columns: tuple[str, ...]
