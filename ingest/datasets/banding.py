"""A binned rater attribute's band, decided at landing as a dataset's other meanings are (label
positions, missing values, round order): `raw.dataset_rater_attributes.band` is the band of
`raw.dataset_bins` a value falls in, `is_banded` whether the dataset bins the attribute at all.

A number x is in the band where (lower is null or x >= lower) and (upper is null or x < upper): the
bands of an attribute cover every finite number. A value that is no finite number (`nan`, as pandas
writes a missing number, `inf`, `unknown`) or means "no answer" is in no band; the ingest names the
former (landing.py's `unbanded`). The value itself stays as given beside its band."""

import duckdb

# the rows not yet banded: a landing's new rows, or the rows a warehouse held before these columns
# were added (ingest/raw_schema.py adds them, null in those rows)
BAND_SQL = """
    update raw.dataset_rater_attributes as attributes
    set
        is_banded = exists (
            select 1 from raw.dataset_bins as bins
            where bins.dataset = attributes.dataset and bins.attribute = attributes.attribute
        ),
        band = (
            select bins.band
            from raw.dataset_bins as bins, (select try_cast(attributes.value as double) as number) as given
            where
                bins.dataset = attributes.dataset
                and bins.attribute = attributes.attribute
                and not attributes.is_missing
                and isfinite(given.number)
                and (bins.lower is null or given.number >= bins.lower)
                and (bins.upper is null or given.number < bins.upper)
        )
    where attributes.is_banded is null"""


def band_rater_attributes(con: duckdb.DuckDBPyConnection) -> None:
    """Band every rater attribute row that has no `is_banded` yet."""
    con.execute(BAND_SQL)
