"""The report's "Judges" section: each automatic evaluator's xRR with every human reference, with its
95% bootstrap interval as an error bar and the human ceiling (the median rater of the reference
against the others) beside it; for DICES, the rater groups each judge sides with, marked by q.

One judge has one colour in every chart, however many judges there are (`judge_colours`: distinct
hues, none repeated). A figure is drawn only where it can be read: a judge's point beside the
ceiling only with at least `MIN_JUDGE_UNITS` units shared with the reference, and the DICES table
only the alignments `judge_agreement` defines (xrr_with_rest at least `ALIGNMENT_FLOOR`); what is
left out is counted under the chart or table, with the reason."""

import colorsys
import html

import altair as alt
import duckdb

from agreement_core.judge_figures.judge_floors import ALIGNMENT_FLOOR, MIN_JUDGE_UNITS
from dwh.reporting.report_parts import WIDTH, Section, rows, svg, table
from dwh.reporting.report_replacement import replacement_figures

# the first ten judges take Tableau's ten colours; more judges take evenly spaced hues of their own
FIRST_COLOURS = [
    "#4c78a8",
    "#f58518",
    "#54a24b",
    "#e45756",
    "#72b7b2",
    "#b279a2",
    "#eeca3b",
    "#9d755d",
    "#ff9da6",
    "#bab0ac",
]
TABLE_ROWS = 25
# the level the marks and the notes read p at
SIGNIFICANCE = 0.05


def judge_colours(judges: list[str]) -> alt.Scale:
    """One colour per judge, the same in every chart: the judges' sorted names as the domain."""
    if len(judges) <= len(FIRST_COLOURS):
        colours = FIRST_COLOURS[: len(judges)]
    else:
        colours = [_hue(number, len(judges)) for number in range(len(judges))]
    return alt.Scale(domain=judges, range=colours)


def _hue(number: int, count: int) -> str:
    """The number-th of `count` colours: hues evenly around the circle, two lightnesses alternating."""
    red, green, blue = colorsys.hls_to_rgb(number / count, 0.42 if number % 2 else 0.58, 0.65)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def source_chart(records: list[dict], source: str, colours: alt.Scale) -> alt.LayerChart:
    """One row per (scope, question, reference); each judge a coloured point with its interval, the
    human ceiling a black tick."""
    base = alt.Chart(alt.Data(values=records)).encode(y=alt.Y("reference:N", title=None))
    judged = base.encode(yOffset=alt.YOffset("judge:N"), color=alt.Color("judge:N", scale=colours))
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


def judge_charts(con: duckdb.DuckDBPyConnection, colours: alt.Scale) -> list[str]:
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
            where source = '{source}' and xrr is not null and n_units >= {MIN_JUDGE_UNITS}
                and reference_value = 'all'
            order by reference, judge
            """,
        )
        if records:
            figures.append(svg(source_chart(records, source, colours)))
        left_out = left_out_note(con, source)
        if left_out:
            figures.append(left_out)
    return figures


def left_out_note(con: duckdb.DuckDBPyConnection, source: str) -> str:
    """What a source's chart does not draw, and why: too few units, or no xRR to estimate."""
    too_few, no_xrr = con.execute(
        f"""
        select
            count(*) filter (where n_units < {MIN_JUDGE_UNITS}),
            count(*) filter (where n_units >= {MIN_JUDGE_UNITS} and xrr is null)
        from marts.judge_agreement
        where source = ? and reference_value = 'all'
        """,
        [source],
    ).fetchone()
    parts = []
    if too_few:
        parts.append(
            f"{too_few:,} (judge, reference) row(s) with fewer than {MIN_JUDGE_UNITS} units shared with the "
            "reference (too few to place a judge against the human raters)"
        )
    if no_xrr:
        parts.append(f"{no_xrr:,} row(s) whose xRR cannot be estimated (a side without variation)")
    if not parts:
        return ""
    return f'<p class="note">{source}: not drawn: {"; ".join(parts)}; every row is in marts.judge_agreement.</p>'


def dices_sides(con: duckdb.DuckDBPyConnection) -> str:
    """The groups each judge sides with beyond chance (q < 0.05), strongest alignment first."""
    shown, undefined = con.execute(
        "select count(*) filter (where alignment is not null), count(*) filter (where alignment is null "
        "and xrr_with_rest is not null) from marts.judge_agreement where source = 'dices'"
    ).fetchone()
    records = rows(
        con,
        f"""
        select judge, scope, question, reference_dimension as dimension, reference_value as "group",
            alignment, xrr, xrr_with_rest, alignment_q as "q (BH)",
            case when alignment_q < 0.05 then '**' when alignment_p < 0.05 then '*' else '' end as mark
        from marts.judge_agreement
        where source = 'dices' and alignment is not null
        order by alignment_q nulls last, alignment desc, judge, scope, question, dimension, "group"
        limit {TABLE_ROWS}
        """,
    )
    which = (
        f"the {len(records):,} of {shown:,} rows with a readable alignment with the smallest q, then the largest "
        "alignment"
        if shown > len(records)
        else f"all {shown:,} rows with a readable alignment"
    )
    return table(
        records,
        "DICES: whose safety judgement each judge sides with: alignment = xRR with the group ÷ xRR with the rest "
        f"(* p < .05, ** also after Benjamini–Hochberg over the groups of one dimension); {which}. "
        f"Alignment is read only where xrr_with_rest ≥ {ALIGNMENT_FLOOR}: {undefined:,} more rows are below it "
        "(a ratio to a chance-level figure) and have no alignment; every row is in marts.judge_agreement",
    )


def unreachable_alignments(con: duckdb.DuckDBPyConnection) -> str:
    """Where a judge's alignment test cannot reach p < .05 whatever the judge does (a small rater
    pool: too few distinct assignments of its raters to groups), one line per source, scope and
    dimension naming its judges and the smallest p; empty where every test can."""
    records = con.execute(
        f"""
        select source, scope, reference_dimension, min(min_attainable_p),
            string_agg(distinct judge, ', ' order by judge)
        from marts.judge_agreement
        where min_attainable_p > {SIGNIFICANCE}
        group by source, scope, reference_dimension
        order by source, scope, reference_dimension
        """
    ).fetchall()
    if not records:
        return ""
    lines = "; ".join(
        f"{html.escape(source)} {html.escape(scope)}, groups by {html.escape(dimension)} (smallest p {floor:.3g}): "
        f"{html.escape(judges)}"
        for source, scope, dimension, floor, judges in records
    )
    return (
        '<p class="note">Alignment tests that cannot reach p &lt; .05 by design (their raters allow too few '
        f"distinct groupings, so 'not significant' says nothing about these judges): {lines}; every row is in "
        "marts.judge_agreement (min_attainable_p).</p>"
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
    judges = [
        judge for (judge,) in con.execute("select distinct judge from marts.judge_agreement order by 1").fetchall()
    ]
    return Section(
        "Judges: whose judgement does each automatic evaluator match?",
        "Each point is a judge's xRR with a human perspective (1: sides with it as much as it can, 0: chance), its bar "
        "the 95% bootstrap interval; the black tick is the median human rater of that perspective against the others: "
        f"a judge right of it beats a typical human. A judge is drawn where it shares at least {MIN_JUDGE_UNITS} units "
        "with the perspective; each judge keeps its colour in every chart. For DICES, a group's alignment above 1 "
        "means the judge sides with that group more than with the rest of the pool. The replacement test asks whether "
        "the judge may do a perspective's raters' work: it replaces them when it matches the other raters at least as "
        "well as the left-out rater, within a margin ε, for at least half of them.",
        [
            *judge_charts(con, judge_colours(judges)),
            dices_sides(con),
            unreachable_alignments(con),
            *replacement_figures(con),
        ],
    )
