"""Landing the dataset releases into the warehouse's raw schema, losslessly: one module per
source under releases/ (common/sources.py lists them) over shared bookkeeping (landing.py). The
`dwh` package runs it."""
