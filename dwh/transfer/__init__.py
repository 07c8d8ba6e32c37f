"""Files in and out of the warehouse's machine: the real releases downloaded and verified (`dwh
fetch`, fetch.py, against manifests/), every mart as Parquet (`dwh export`, export.py), and the units
a judge should judge (`dwh tasks`, tasks.py)."""
