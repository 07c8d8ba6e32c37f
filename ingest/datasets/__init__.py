"""Datasets: a researcher's own evaluation data in one long form, landed with no code
(`dwh ingest --dataset PATH`; docs/DATASETS.md). A folder holds dataset.yml, questions.csv, one or
more judgements files and optionally raters.csv and units.csv / units.jsonl:

- manifest.py reads dataset.yml, questions.py questions.csv (both small: read in Python, every
  problem a one-line error naming the file and line);
- folder.py finds the files and their columns, refusing a folder that lacks one or a column;
- the one long-form reader (ingest/long_form/, shared with `dwh ingest --judges`) recognises a data
  file's columns and reads its rows into a scratch table of text with their lines (DuckDB's readers);
- landing.py checks the rows in SQL and lands them into `raw.dataset_*` (ingest/sql/raw_dataset.sql),
  one transaction per dataset, the bad rows to raw.ingest_rejects.
"""

# the source of a dataset load in raw.ingest_loads: `dwh build` digests the `raw.dataset_*` tables
SOURCE = "dataset"
