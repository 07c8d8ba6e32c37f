"""The report's "Judges" section: each automatic evaluator's xRR with every human reference, with its
95% bootstrap interval as an error bar and the human ceiling (the median rater of the reference
against the others) beside it; for DICES, the rater groups each judge sides with, marked by q."""

import altair as alt
import duckdb

from dwh.report_parts import WIDTH, Section, rows, svg, table

JUDGE_AND_CEILING = alt.Scale(range=["#4c78a8", "#f58518", "#54a24b", "#b279a2", "#9d755d", "#e45756"])


def source_chart(records: list[dict], source: str) -> alt.LayerChart:
    """One row per (scope, question, reference); each judge a coloured point with its interval, the
    human ceiling a black tick."""
    base = alt.Chart(alt.Data(values=records)).encode(y=alt.Y("reference:N", title=None))
    judged = base.encode(yOffset=alt.YOffset("judge:N"), color=alt.Color("judge:N", scale=JUDGE_AND_CEILING))
    bars = judged.mark_rule(strokeWidth=2).encode(x=alt.X("ci_low:Q", title="xRR with the reference"), x2="ci_high:Q")
    points = judged.mark_point(filled=True, size=60).encode(
        x="xrr:Q",
        tooltip=[
            "judge:N",
            "reference:N",
            alt.Tooltip("xrr:Q", format=".3f"),
            alt.Tooltip("ci_low:Q", format=".3f", title="95% interval from"),
            alt.Tooltip("ci_high:Q", format=".3f", title="to"),
            alt.Tooltip("ceiling:Q", format=".3f", title="median human rater"),
            alt.Tooltip("percentile:Q", format=".0%", title="raters below the judge"),
            "n_units:Q",
        ],
    )
    ceiling = base.mark_tick(color="black", thickness=2, size=24).encode(x="ceiling:Q")
    zero = alt.Chart(alt.Data(values=[{"x": 0}])).mark_rule(color="#888", strokeDash=[4, 3]).encode(x="x:Q")
    height = 18 * len({(r["reference"], r["judge"]) for r in records}) + 40
    title = f"{source}: each judge's xRR with each reference (tick: the median human rater of the reference)"
    return alt.layer(zero, bars, points, ceiling).properties(width=WIDTH, height=height, title=title)


def judge_charts(con: duckdb.DuckDBPyConnection) -> list[str]:
    figures = []
    for (source,) in con.execute("select distinct source from marts.judge_agreement order by source").fetchall():
        records = rows(
            con,
            f"""
            select judge, scope || ' · ' || question || ' · ' || reference_dimension
                    || case when reference_value = 'all' then '' else ' = ' || reference_value end as reference,
                xrr, coalesce(xrr_ci_low, xrr) as ci_low, coalesce(xrr_ci_high, xrr) as ci_high,
                human_xrr_median as ceiling, judge_percentile as percentile, n_units
            from marts.judge_agreement
            where source = '{source}' and xrr is not null
                and (reference_value = 'all' or source <> 'dices')
            order by reference, judge
            """,
        )
        if records:
            figures.append(svg(source_chart(records, source)))
    return figures


def dices_sides(con: duckdb.DuckDBPyConnection) -> str:
    """The groups each judge sides with beyond chance (q < 0.05), strongest alignment first."""
    records = rows(
        con,
        """
        select judge, scope, question, reference_dimension as dimension, reference_value as "group",
            alignment, xrr, xrr_with_rest, alignment_q as "q (BH)",
            case when alignment_q < 0.05 then '**' when alignment_p < 0.05 then '*' else '' end as mark
        from marts.judge_agreement
        where source = 'dices' and alignment is not null
        order by alignment_q nulls last, alignment desc
        limit 25
        """,
    )
    return table(
        records,
        "DICES: whose safety judgement each judge sides with: alignment = xRR with the group ÷ xRR with the rest "
        "(* p < .05, ** also after Benjamini–Hochberg over the groups of one dimension)",
    )


def judges_section(con: duckdb.DuckDBPyConnection, sources: list[str]) -> Section | None:
    has_judges = (
        con.execute(
            "select count(*) from duckdb_tables() where schema_name = 'marts' and table_name = 'judge_agreement'"
        ).fetchone()[0]
        and con.execute("select count(*) from marts.judge_agreement").fetchone()[0]
    )
    if not has_judges:
        return None
    return Section(
        "Judges: whose judgement does each automatic evaluator match?",
        "Each point is a judge's xRR with a human perspective (1: sides with it as much as it can, 0: chance), its bar "
        "the 95% bootstrap interval; the black tick is the median human rater of that perspective against the others: "
        "a judge right of it beats a typical human. For DICES, a group's alignment above 1 means the judge sides "
        "with that group more than with the rest of the pool.",
        [*judge_charts(con), dices_sides(con)],
    )
