"""The report's verdicts of the replacement test (`judge_replacement`, docs/AGREEMENT.md "Can the
judge replace the raters?"): for each judge and perspective, at a glance, on how many questions the
judge may stand in for the raters, its winning rate and advantage probability beside its xRR and
the human ceiling; and the finding to see: a judge that replaces a perspective's raters on a
question but not one of its groups."""

import duckdb

from dwh.reporting.report_parts import rows, table

TABLE_ROWS = 25


def has_replacement(con: duckdb.DuckDBPyConnection) -> bool:
    return bool(
        con.execute(
            "select count(*) from duckdb_tables() where schema_name = 'marts' and table_name = 'judge_replacement'"
        ).fetchone()[0]
        and con.execute("select count(*) from marts.judge_replacement").fetchone()[0]
    )


def verdicts(con: duckdb.DuckDBPyConnection) -> str:
    """One row per (judge, source, base perspective): questions replaced of those tested, and the
    medians over them of the winning rate, advantage probability, xRR and human ceiling."""
    missed = GROUPS_NOT_REPLACED.format(
        columns="g.judge, g.source, r.reference_dimension as perspective, count(*) as n_groups",
        limit="group by all",
    )
    records = rows(
        con,
        f"""
        with missed as ({missed})
        select
            r.judge, r.source, r.reference_dimension as perspective,
            count(*) filter (where r.replaces) || ' of ' || count(r.replaces) as "replaces on questions",
            count(*) filter (where r.replaces is null) as "not testable",
            median(r.winning_rate) as "winning rate",
            median(r.advantage_probability) as "advantage probability",
            median(a.xrr) as xrr,
            median(a.human_xrr_median) as "human ceiling",
            max(r.epsilon) as "ε",
            coalesce(any_value(missed.n_groups), 0) as "groups not replaced"
        from marts.judge_replacement as r
        left join marts.judge_agreement as a
            using (judge, source, scope, question, reference_dimension, reference_value)
        left join missed
            on r.judge = missed.judge and r.source = missed.source and r.reference_dimension = missed.perspective
        where r.reference_value = 'all'
        group by r.judge, r.source, r.reference_dimension
        order by r.source, perspective, "advantage probability" desc nulls last, r.judge
        """,
    )
    return table(
        records,
        "Can the judge replace the raters? The alternative annotator test per judge and perspective: on how many "
        "questions the judge wins against at least half of the raters (replaces), and the medians over those "
        "questions of the winning rate, the advantage probability (to rank judges), the judge's xRR and the median "
        "human rater's (the ceiling). Not testable: no rater with enough units. Groups not replaced: (question, group) "
        "where the judge replaces the perspective's raters but not the group's (listed below). Per question and group: "
        "marts.judge_replacement",
    )


def groups_not_replaced(con: duckdb.DuckDBPyConnection) -> str:
    """The questions where a judge replaces a perspective's raters but not those of one of its groups."""
    total = con.execute(GROUPS_NOT_REPLACED.format(columns="count(*)", limit="")).fetchone()[0]
    if not total:
        return '<p class="note">No judge replaces a perspective\'s raters on a question but not one of its groups.</p>'
    records = rows(
        con,
        GROUPS_NOT_REPLACED.format(
            columns=(
                "g.judge, g.source, g.scope, g.question, r.reference_dimension as perspective, "
                "g.reference_dimension || ' = ' || g.reference_value as \"group\", "
                'r.winning_rate as "winning rate (all)", g.winning_rate as "winning rate (group)", '
                'g.advantage_probability as "advantage probability (group)", g.n_raters_tested as "group raters tested"'
            ),
            limit=f'order by g.winning_rate, g.judge, g.scope, g.question, "group" limit {TABLE_ROWS}',
        ),
    )
    shown = "all" if total <= len(records) else f"the {len(records):,} with the lowest winning rate of"
    return table(
        records,
        f"Replaces the raters, not a group: {shown} {total:,} (judge, question, group) where the judge replaces the "
        "perspective's raters overall but not that group's (winning rate below 0.5 against the group's raters)",
    )


# a group's base perspective: the base reference of the same judge and question whose raters the
# group is drawn from (`judge_agreement`: groups split the `raters` reference)
GROUPS_NOT_REPLACED = """
    select {columns}
    from marts.judge_replacement as g
    inner join marts.judge_replacement as r
        on g.judge = r.judge and g.source = r.source and g.scope = r.scope and g.question = r.question
        and r.reference_value = 'all' and r.reference_dimension = 'raters'
    where g.reference_value != 'all' and r.replaces and not g.replaces
    {limit}
"""


def replacement_figures(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The report's tables of the replacement test, none where no judge was tested."""
    if not has_replacement(con):
        return []
    return [verdicts(con), groups_not_replaced(con)]
