"""The report's charts of agreement with its uncertainty: α and xRR drawn with their 95% bootstrap
intervals as error bars, and DICES groups' GAI marked where the permutation test finds it beyond
chance, beside GRASP's published figures and marks."""

import altair as alt
import duckdb

from dwh.reporting.report_parts import WIDTH, rows, svg, table

WAREHOUSE_AND_GRASP = alt.Scale(domain=["warehouse", "GRASP"], range=["#4c78a8", "#e45756"])


def interval_chart(
    records: list[dict], category: str, series: str, axis_title: str, title: str, height: int
) -> alt.LayerChart:
    """A point per record at `value`, with a rule from `ci_low` to `ci_high`; one row per `category`,
    its `series` side by side and coloured."""
    base = alt.Chart(alt.Data(values=records)).encode(
        y=alt.Y(f"{category}:N", title=None),
        yOffset=alt.YOffset(f"{series}:N"),
        color=alt.Color(f"{series}:N", title=None),
    )
    bars = base.mark_rule(strokeWidth=2).encode(x=alt.X("ci_low:Q", title=axis_title), x2="ci_high:Q")
    points = base.mark_point(filled=True, size=60).encode(
        x="value:Q",
        tooltip=[
            f"{category}:N",
            f"{series}:N",
            alt.Tooltip("value:Q", format=".3f"),
            alt.Tooltip("ci_low:Q", format=".3f", title="95% interval from"),
            alt.Tooltip("ci_high:Q", format=".3f", title="to"),
            "n_units:Q",
        ],
    )
    zero = alt.Chart(alt.Data(values=[{"x": 0}])).mark_rule(color="#888", strokeDash=[4, 3]).encode(x="x:Q")
    return alt.layer(zero, bars, points).properties(width=WIDTH, height=height, title=title)


def interval_figure(
    con: duckdb.DuckDBPyConnection, sql: str, category: str, series: str, axis_title: str, title: str
) -> list[str]:
    """The chart of `interval_chart` for the rows of `sql` (value, ci_low, ci_high, n_units, and the
    category and series columns), or nothing when it has none."""
    records = rows(con, sql)
    if not records:
        return []
    height = 36 * len({record[category] for record in records}) + 40
    return [svg(interval_chart(records, category, series, axis_title, title, height))]


def duo_users_vs_annotators(con: duckdb.DuckDBPyConnection) -> list[str]:
    """DUO's question: does a dialogue's own user score it as its three annotators do?"""
    return interval_figure(
        con,
        """
        select question as metric, scope as language_setting, n_units, xrr as value,
            xrr_ci_low as ci_low, xrr_ci_high as ci_high
        from marts.replication_agreement
        where replication_a = 'user' and replication_b = 'annotators' and xrr is not null
        order by metric, language_setting
        """,
        "metric",
        "language_setting",
        "xRR, user vs annotators (interval level), with its 95% bootstrap interval",
        "Do users score their dialogues as the annotators do? (marts.replication_agreement)",
    )


def redial_alpha_with_intervals(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Seeker against recommender, per form question and split."""
    return interval_figure(
        con,
        """
        select question, scope as split, n_units, alpha as value,
            alpha_ci_low as ci_low, alpha_ci_high as ci_high
        from marts.agreement
        where source = 'redial' and group_dimension = 'all' and alpha is not null
        order by question, split
        """,
        "question",
        "split",
        "Krippendorff's α (seeker vs recommender), with its 95% bootstrap interval over movies",
        "Do seeker and recommender forms agree? (per question)",
    )


def dices_groups_beside_grasp(con: duckdb.DuckDBPyConnection) -> list[str]:
    """DICES-350 `Q_overall` per rater group: α with its interval and GAI with its significance,
    the warehouse's beside GRASP's."""
    groups = rows(
        con,
        """
        select group_dimension || ' = ' || group_value as rater_group, n_raters,
            alpha, alpha_ci_low, alpha_ci_high, grasp_irr, grasp_irr_significance,
            gai, gai_p, gai_q, grasp_gai, grasp_gai_significance
        from marts.grasp_comparison
        order by group_dimension, group_value
    """,
    )
    if not groups:
        return []
    order = [group["rater_group"] for group in groups]
    return [
        svg(alt.hconcat(group_alpha_chart(groups, order), group_gai_chart(groups, order))),
        table(
            [group_table_row(group) for group in groups],
            "DICES-350 Q_overall per rater group (marts.grasp_comparison): "
            "* p < .05 in the permutation test, ** also q < .05 after Benjamini–Hochberg, as GRASP marks",
        ),
        "<p class=note>GRASP kept 104 of the 123 raters and the release does not say which, so the figures "
        "cannot match exactly (marts.grasp_comparison.why_not_equal). To see how they move when the 19 raters "
        "who side least with the others are left out, follow docs/AGREEMENT.md, “Choosing a quality filter”.</p>",
    ]


def group_table_row(group: dict) -> dict:
    return {
        "rater group": group["rater_group"],
        "raters": group["n_raters"],
        "α [95% interval]": with_interval(group["alpha"], group["alpha_ci_low"], group["alpha_ci_high"]),
        "GAI": group["gai"],
        "p": group["gai_p"],
        "q (BH)": group["gai_q"],
        "mark": significance_mark(group["gai_p"], group["gai_q"]),
        "GRASP GAI": f"{group['grasp_gai']:.3f}{group['grasp_gai_significance'] or ''}",
    }


def with_interval(value: float | None, low: float | None, high: float | None) -> str:
    if value is None:
        return "–"
    if low is None or high is None:
        return f"{value:.3f}"
    return f"{value:.3f} [{low:.3f}, {high:.3f}]"


def significance_mark(p_value: float | None, q_value: float | None) -> str:
    """GRASP's marks: `*` p < .05, `**` also after Benjamini–Hochberg."""
    if p_value is None or p_value >= 0.05:
        return ""
    return "**" if q_value is not None and q_value < 0.05 else "*"


def group_alpha_chart(groups: list[dict], order: list[str]) -> alt.LayerChart:
    warehouse = [
        {
            "rater_group": g["rater_group"],
            "figures": "warehouse",
            "value": g["alpha"],
            "ci_low": g["alpha_ci_low"],
            "ci_high": g["alpha_ci_high"],
            "mark": "",
        }
        for g in groups
    ]
    grasp = [
        {
            "rater_group": g["rater_group"],
            "figures": "GRASP",
            "value": g["grasp_irr"],
            "mark": g["grasp_irr_significance"] or "",
        }
        for g in groups
    ]
    return marked_points(warehouse + grasp, order, "α within the group (warehouse: 95% interval)", "α / IRR")


def group_gai_chart(groups: list[dict], order: list[str]) -> alt.LayerChart:
    records = [
        {
            "rater_group": g["rater_group"],
            "figures": "warehouse",
            "value": g["gai"],
            "mark": significance_mark(g["gai_p"], g["gai_q"]),
        }
        for g in groups
    ] + [
        {
            "rater_group": g["rater_group"],
            "figures": "GRASP",
            "value": g["grasp_gai"],
            "mark": g["grasp_gai_significance"] or "",
        }
        for g in groups
    ]
    return marked_points(records, order, "GAI = α ÷ xRR (* p < .05, ** also q < .05)", "GAI", reference=1.0)


def marked_points(
    records: list[dict], order: list[str], axis_title: str, title: str, reference: float = 0.0
) -> alt.LayerChart:
    """The warehouse's and GRASP's figure per group, side by side, the warehouse's with its interval
    where it has one, each followed by its significance mark."""
    base = alt.Chart(alt.Data(values=records)).encode(
        y=alt.Y("rater_group:N", sort=order, title=None, axis=alt.Axis(labelLimit=300)),
        yOffset=alt.YOffset("figures:N", sort=["warehouse", "GRASP"]),
        color=alt.Color("figures:N", scale=WAREHOUSE_AND_GRASP, title=None),
    )
    bars = (
        base.transform_filter("isValid(datum.ci_low)")
        .mark_rule(strokeWidth=2)
        .encode(x=alt.X("ci_low:Q", title=axis_title, scale=alt.Scale(zero=False)), x2="ci_high:Q")
    )
    points = base.mark_point(filled=True, size=50).encode(
        x="value:Q",
        shape=alt.Shape("figures:N", scale=alt.Scale(domain=["warehouse", "GRASP"], range=["circle", "diamond"])),
        tooltip=["rater_group:N", "figures:N", alt.Tooltip("value:Q", format=".3f"), "mark:N"],
    )
    marks = base.mark_text(align="left", dx=7, dy=4, fontSize=13, fontWeight="bold").encode(x="value:Q", text="mark:N")
    guide = alt.Chart(alt.Data(values=[{"x": reference}])).mark_rule(color="#888", strokeDash=[4, 3]).encode(x="x:Q")
    return alt.layer(guide, bars, points, marks).properties(width=WIDTH // 2, height=22 * len(order), title=title)
