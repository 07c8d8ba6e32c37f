"""Landing the dataset releases into the warehouse's raw schema, losslessly: one module per
source (ingest/sources.py lists them) over shared bookkeeping (landing.py). The `dwh` package
runs it."""

__version__ = "0.1.0"
