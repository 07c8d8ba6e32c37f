"""The pieces every section of `dwh report` is made of: query rows, draw a chart, lay out a table."""

import html
from dataclasses import dataclass, field

import altair as alt
import duckdb
import vl_convert

WIDTH = 560
# the Vega-Lite release altair writes its specifications for ("v6.4.1" → "6.4")
VEGA_LITE_VERSION = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])


@dataclass
class Section:
    """A heading, a two-line reading guide, and the charts (inline SVG) and tables below them."""

    title: str
    guide: str
    figures: list[str] = field(default_factory=list)


def rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    """The result of `sql` as a list of {column: value}, the shape Vega-Lite reads inline."""
    cursor = con.execute(sql)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]


def svg(chart: alt.TopLevelMixin) -> str:
    """The chart drawn as an SVG element, ready to inline."""
    drawn = vl_convert.vegalite_to_svg(chart.to_dict(), vl_version=VEGA_LITE_VERSION)
    return f'<figure class="chart">{drawn}</figure>'


def table(records: list[dict], caption: str) -> str:
    """A small HTML table of `records` (already limited by the query)."""
    if not records:
        return ""
    head = "".join(f"<th>{html.escape(name)}</th>" for name in records[0])
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_format(name, value))}</td>" for name, value in record.items()) + "</tr>"
        for record in records
    )
    return f"<table><caption>{html.escape(caption)}</caption><tr>{head}</tr>{body}</table>"


# columns holding p-values (or their BH-corrected q-values): below 0.001 they read "< 0.001"
P_VALUE_COLUMNS = (
    "p",
    "q (BH)",
    "smallest p",
    "pearson_p",
    "spearman_p",
    "gai_p",
    "gai_q",
    "alignment_p",
    "difference_p",
    "p_value",
)


def _format(name: str, value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return "< 0.001" if name in P_VALUE_COLUMNS and value < 0.001 else f"{value:.3f}"
    return str(value)


def item_histogram(
    spread: list[dict], field_name: str, axis_title: str, title: str, counted: str = "items"
) -> alt.Chart:
    """How many DICES items (or raters) fall in each bin of one figure, per release."""
    return (
        alt.Chart(alt.Data(values=spread))
        .mark_bar()
        .encode(
            x=alt.X(f"{field_name}:Q", bin=alt.Bin(maxbins=30), title=axis_title),
            y=alt.Y("count():Q", title=counted),
            color=alt.Color("config:N", title="DICES"),
            tooltip=["config:N", "count():Q"],
        )
        .properties(width=WIDTH // 2 - 20, height=180, title=title)
    )
