"""The report's section of each dataset loaded with `dwh ingest --dataset` (docs/DATASETS.md): what
it is and where it comes from, α of each question with its 95% bootstrap interval, and its rater
groups by α, xRR and GAI with their permutation tests. One function for every dataset: what a
section shows comes from the marts and the dataset's own dataset.yml, never from its name."""

import html

import duckdb

from dwh.reporting.report_parts import Section, rows, table
from dwh.reporting.report_uncertainty import interval_figure, significance_mark, with_interval

# the rater groups a section lists, the clearest findings first (smallest q)
MAX_GROUP_ROWS = 25
# a group's figures are listed from this many units on (`agreement` states its own small-group rules)
MIN_GROUP_UNITS = 10
# the level the marks and the note read p at
SIGNIFICANCE = 0.05


def dataset_sections(con: duckdb.DuckDBPyConnection, sources: list[str]) -> list[Section]:
    """One section per loaded dataset with dialogues in the marts, in name order."""
    return [dataset_section(con, manifest) for manifest in loaded_datasets(con) if manifest["source"] in sources]


def loaded_datasets(con: duckdb.DuckDBPyConnection) -> list[dict]:
    """What each loaded dataset's dataset.yml says of it ([] where none was ever loaded)."""
    try:
        return rows(
            con,
            "select dataset as source, title, license, citation, url from raw.dataset_manifests order by dataset",
        )
    except duckdb.CatalogException:
        return []


def dataset_section(con: duckdb.DuckDBPyConnection, manifest: dict) -> Section:
    source = manifest["source"]
    counts = rows(
        con,
        f"""
        select
            (select count(*) from marts.dialogues where source = {sql_text(source)}) as units,
            (select count(*) from marts.raters where source = {sql_text(source)}) as raters,
            (select count(*) from marts.ratings where source = {sql_text(source)}) as judgements
        """,
    )[0]
    url = f' (<a href="{html.escape(manifest["url"])}">{html.escape(manifest["url"])}</a>)' if manifest["url"] else ""
    guide = (
        f"{counts['units']:,} units, {counts['raters']:,} raters, {counts['judgements']:,} judgement rows. "
        f"License: {manifest['license']}. Cite: {manifest['citation']}"
    )
    return Section(
        f"{manifest['title']} ({source})",
        guide,
        [
            f"<p class=note>Loaded with dwh ingest --dataset{url}; its rows are in every mart under "
            f"source = '{html.escape(source)}'.</p>",
            *question_alphas(con, source),
            group_table(con, source),
        ],
    )


def question_alphas(con: duckdb.DuckDBPyConnection, source: str) -> list[str]:
    return interval_figure(
        con,
        f"""
        select question, scope, n_units, alpha as value, alpha_ci_low as ci_low, alpha_ci_high as ci_high
        from marts.agreement
        where source = {sql_text(source)} and group_dimension = 'all' and alpha is not null
        order by question, scope
        """,
        "question",
        "scope",
        "Krippendorff's α among all raters, with its 95% bootstrap interval over units",
        "How much do the raters agree? (per question)",
    )


def group_table(con: duckdb.DuckDBPyConnection, source: str) -> str:
    groups = rows(
        con,
        f"""
        select question, group_dimension || ' = ' || group_value as rater_group, n_units,
            alpha, alpha_ci_low, alpha_ci_high, xrr, gai, gai_p, gai_q, min_attainable_p
        from marts.agreement
        where source = {sql_text(source)} and group_dimension <> 'all' and n_units >= {MIN_GROUP_UNITS}
        order by gai_q nulls last, gai_p nulls last, question, rater_group
        limit {MAX_GROUP_ROWS}
        """,
    )
    if not groups:
        return (
            f"<p class=note>No rater group of this dataset has {MIN_GROUP_UNITS} units or more: its raters.csv "
            "names no dimension, or its groups are small.</p>"
        )
    return table(
        [
            {
                "question": group["question"],
                "rater group": group["rater_group"],
                "units": group["n_units"],
                "α [95% interval]": with_interval(group["alpha"], group["alpha_ci_low"], group["alpha_ci_high"]),
                "xRR": group["xrr"],
                "GAI": group["gai"],
                "p": group["gai_p"],
                "q (BH)": group["gai_q"],
                "smallest p": group["min_attainable_p"],
                "mark": significance_mark(group["gai_p"], group["gai_q"]),
            }
            for group in groups
        ],
        f"Rater groups with {MIN_GROUP_UNITS} units or more, the smallest q first (at most {MAX_GROUP_ROWS}; "
        "every group is in marts.agreement): * p < .05 in the permutation test, ** also q < .05; smallest p: "
        "the least p the test can give" + unreachable_note(groups),
    )


def unreachable_note(groups: list[dict]) -> str:
    """What the caption adds when some groups' tests cannot reach p < .05 whatever the data (a small
    rater pool: too few distinct assignments of its raters to groups)."""
    floors = [group["min_attainable_p"] for group in groups if (group["min_attainable_p"] or 0) > SIGNIFICANCE]
    if not floors:
        return ""
    return (
        f". {len(floors)} of these groups cannot reach p < .05 by design (their smallest p is {min(floors):.3g} "
        "or more): their raters allow too few distinct groupings, so 'not significant' says nothing about them"
    )


def sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
