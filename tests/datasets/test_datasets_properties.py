"""Property: whatever judgement rows a dataset folder holds, in any of the three formats, every row
is landed or rejected, never lost; what lands is unique per (unit, rater, question, round), flagged
missing exactly when its value is empty or a missing value, and placed among the labels or read as
a number as its question's level says."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.loading import IngestRequest, land_into
from tests.dataset_folders import write_dataset
from tests.helpers import query

pytestmark = pytest.mark.slow  # Hypothesis runs dozens of landings

PROPERTY_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
ODD_TEXT = st.text(
    alphabet=st.one_of(st.characters(blacklist_categories=("Cs", "Cc")), st.sampled_from(',"\n ')), max_size=6
)
ROWS = st.lists(
    st.tuples(
        st.sampled_from(["u1", "u2", "", " "]),
        st.sampled_from(["r1", "r2", "r5", ""]),
        st.sampled_from(["safe", "quality", "engagement", "seconds", "wit", ""]),
        st.one_of(
            st.sampled_from(["yes", "no", " unsure ", "skip", "", "good", "bad", "50", "101", "-1", "1.0", "x"]),
            ODD_TEXT,
        ),
        st.sampled_from(["1", "2", "10", "", "1.0", "02"]),
    ),
    min_size=1,
    max_size=25,
)


@PROPERTY_SETTINGS
@given(rows=ROWS, file_format=st.sampled_from(["csv", "jsonl", "parquet"]))
def test_every_judgement_row_is_landed_or_rejected(
    tmp_path_factory: pytest.TempPathFactory, rows: list[tuple[str, ...]], file_format: str
) -> None:
    root = tmp_path_factory.mktemp("dataset-property")
    folder = write_dataset(root / "study", judgements=rows, judgements_file=f"judgements.{file_format}")
    db_path = root / "warehouse.duckdb"

    [outcome] = land_into(db_path, IngestRequest(datasets=(folder,)), lambda step: None).datasets

    [report] = [report for report in outcome.reports if report.file_path.startswith("judgements")]
    landed = query(db_path, "select count(*) from raw.dataset_judgements")[0][0]
    rejected = query(db_path, "select count(*) from raw.ingest_rejects where reason is not null")[0][0]
    assert report.records_read == len(rows)
    assert (report.records_landed, report.records_rejected) == (landed, rejected)
    assert landed + rejected == len(rows)
    assert query(
        db_path,
        "select count(*) from (select unit_id, rater_id, question, round_rank from raw.dataset_judgements "
        "group by all having count(*) > 1)",
    ) == [(0,)]
    wrongly_flagged = query(
        db_path,
        """
        select count(*) from raw.dataset_judgements
        where is_missing <> (coalesce(trim(value), '') = '' or (question = 'safe' and trim(value) = 'skip'))
        """,
    )
    assert wrongly_flagged == [(0,)]
    misplaced = query(
        db_path,
        """
        select count(*) from raw.dataset_judgements
        where not is_missing and (
            (question in ('safe', 'quality') and (label_position is null or value_number is not null))
            or (question in ('engagement', 'seconds') and (value_number is null or label_position is not null))
        )
        """,
    )
    assert misplaced == [(0,)]
