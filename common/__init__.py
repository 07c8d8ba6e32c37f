"""What every layer of the project uses: the one error type (`errors`), where things live
(`paths`), connections to the warehouse and SQL text helpers (`database`), the sources' registry
(`sources`: the built-in releases; `registry`: those and the datasets a warehouse holds), the
checks of where a command may write (`outputs`), and the version. It imports nothing of the
project's other packages: `ingest`, `agreement_core`, `sample_data` and `dwh` stand on it."""

__version__ = "0.1.0"
