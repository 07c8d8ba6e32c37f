"""`dwh report`: one self-contained HTML page of charts from the live warehouse.

Charts are Vega-Lite specifications (built with altair) rendered to SVG here, by vl-convert's
embedded engine, and inlined: the page holds no script and fetches nothing, so it opens offline
from `file://`, in a mail attachment or on an air-gapped machine, and looks the same everywhere.
Each section is shown only for the sources the warehouse holds.
"""

import html
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import altair as alt
import duckdb

from common.database import connect_read_only
from common.errors import DwhError
from common.outputs import refuse_non_regular_file, refuse_warehouse_files, replacing, resolved
from dwh.building.freshness import marts_build, say_if_older_than_last_load
from dwh.reporting.report_datasets import dataset_sections
from dwh.reporting.report_judges import judges_section
from dwh.reporting.report_parts import WIDTH, Section, item_histogram, rows, svg, table
from dwh.reporting.report_uncertainty import (
    dices_groups_beside_grasp,
    duo_users_vs_annotators,
    redial_alpha_with_intervals,
)


def write_report(db_path: Path, out_path: Path) -> Path:
    """Write the report for the warehouse at `db_path` to `out_path`; return the path written.

    `out_path` is resolved as the warehouse's path is: a symbolic link (to an earlier report, say)
    names the file written, and stays a link. It is checked before any work: it may be new or an
    earlier report, nothing else; the page goes to a new file beside it, renamed onto it at the end
    (readers of an older report never see a half-written one)."""
    out_path = resolved(out_path)
    refuse_unreplaceable_report_path(out_path, db_path)
    with replacing(out_path) as partial:
        con = connect_read_only(db_path)
        try:
            sources = loaded_sources(con)
            if not sources:
                raise DwhError(f"{db_path}: holds no built marts yet; run `dwh ingest …` and `dwh build` first")
            say_if_older_than_last_load(marts_build(con), "dwh report")
            sections = [section for build in SECTION_BUILDERS if (section := build(con, sources)) is not None]
            sections += dataset_sections(con, sources)
            if judges := judges_section(con, sources):
                sections.append(judges)
        finally:
            con.close()
        partial.write_text(render_page(db_path, sources, sections), encoding="utf-8")
    return out_path


REPORT_TITLE = "<title>Conversational-AI evaluation warehouse: report</title>"


def refuse_unreplaceable_report_path(out_path: Path, db_path: Path) -> None:
    """The report replaces only an earlier report: never the warehouse, a device or a folder, nor
    any other file (a release's, say)."""
    refuse_warehouse_files(out_path, db_path, "dwh report")
    refuse_non_regular_file(out_path, "dwh report")
    if out_path.exists() and not _is_a_report(out_path):
        raise DwhError(
            f"{out_path}: already exists and is not a report dwh wrote; dwh report replaces only its own "
            "earlier report: choose another path, or remove this file first"
        )


def _is_a_report(path: Path) -> bool:
    with open(path, "rb") as file:
        return REPORT_TITLE.encode() in file.read(4096)


def loaded_sources(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The sources with dialogues in the marts ([] before the first build)."""
    try:
        return [row[0] for row in con.execute("select distinct source from marts.dialogues order by source").fetchall()]
    except duckdb.CatalogException:
        return []


# ---- the load ---------------------------------------------------------------------------------


def load_section(con: duckdb.DuckDBPyConnection, sources: list[str]) -> Section:
    counts = rows(
        con,
        """
        unpivot (
            select source, sum(records_read) as read, sum(records_landed) as landed,
                sum(records_rejected) as rejected
            from marts.load_reconciliation group by source
        ) on read, landed, rejected into name outcome value records
        order by source
    """,
    )
    load_chart = (
        alt.Chart(alt.Data(values=counts))
        .mark_bar()
        .encode(
            x=alt.X("records:Q", scale=alt.Scale(type="symlog"), title="records (symmetric log scale)"),
            y=alt.Y("outcome:N", sort=["read", "landed", "rejected"], title=None),
            color=alt.Color(
                "outcome:N",
                sort=["read", "landed", "rejected"],
                scale=alt.Scale(range=["#4c78a8", "#54a24b", "#e45756"]),
            ),
            row=alt.Row("source:N", title=None),
            tooltip=["source:N", "outcome:N", "records:Q"],
        )
        .properties(width=WIDTH, height=60, title="Records read, landed and rejected, per source")
    )
    comparisons = rows(
        con,
        """
        select dataset, comparison, count(*) as figures
        from marts.published_statistics_comparison group by all order by all
    """,
    )
    comparison_chart = (
        alt.Chart(alt.Data(values=comparisons))
        .mark_bar()
        .encode(
            x=alt.X("figures:Q", title="published figures"),
            y=alt.Y("dataset:N", title=None),
            color=alt.Color(
                "comparison:N",
                scale=alt.Scale(
                    domain=["match", "explained", "mismatch", "not comparable", "not observed", "not published"],
                    range=["#54a24b", "#72b7b2", "#e45756", "#bab0ac", "#eeca3b", "#9d755d"],
                ),
            ),
            tooltip=["dataset:N", "comparison:N", "figures:Q"],
        )
        .properties(width=WIDTH, height=90, title="Figures the dataset cards publish, against the warehouse's own")
    )
    mismatches = rows(
        con,
        """
        select dataset, language, setting, dataset_config as config, statistic, published_value as published,
            observed_value as observed
        from marts.published_statistics_comparison where comparison = 'mismatch'
        order by abs(difference) desc nulls last limit 12
    """,
    )
    return Section(
        "The load",
        "Every record read from a release file is either landed or rejected (raw.ingest_rejects says why). "
        "Below, each figure a dataset card publishes is compared with the same figure measured in the marts.",
        [
            svg(load_chart),
            svg(comparison_chart),
            table(mismatches, "Largest mismatches (marts.published_statistics_comparison)"),
        ],
    )


# ---- DUO --------------------------------------------------------------------------------------


def duo_section(con: duckdb.DuckDBPyConnection, sources: list[str]) -> Section | None:
    if "duo" not in sources:
        return None
    scores = rows(
        con,
        """
        select dialogues.language || ' · ' || dialogues.setting as language_setting,
            ratings.rating_kind || ': ' || ratings.question as metric,
            cast(ratings.value_numeric as integer) as score,
            count(*) as ratings
        from marts.ratings inner join marts.dialogues using (dialogue_key)
        where ratings.source = 'duo' and ratings.value_numeric is not null
        group by all order by all
    """,
    )
    heatmap = (
        alt.Chart(alt.Data(values=scores))
        .mark_rect()
        .encode(
            x=alt.X("score:O", title="score"),
            y=alt.Y("metric:N", title=None),
            color=alt.Color("ratings:Q", scale=alt.Scale(scheme="blues"), title="ratings"),
            column=alt.Column("language_setting:N", title=None),
            tooltip=["language_setting:N", "metric:N", "score:O", "ratings:Q"],
        )
        .properties(width=110, height=220, title="Score distributions per metric, language and setting")
    )
    pairs = rows(
        con,
        """
        with objective_means as (
            select dialogue_key, question, avg(value_numeric) as annotators_mean
            from marts.ratings where source = 'duo' and rating_kind = 'objective' group by all
        )
        select dialogues.language || ' · ' || dialogues.setting as language_setting, ratings.question as metric,
            ratings.value_numeric as users_score, objective_means.annotators_mean
        from marts.ratings
        inner join objective_means using (dialogue_key, question)
        inner join marts.dialogues using (dialogue_key)
        where ratings.source = 'duo' and ratings.rating_kind = 'subjective'
            and ratings.value_numeric is not null and objective_means.annotators_mean is not null
    """,
    )
    correlations = rows(
        con,
        """
        select scope, question_a as metric, n_dialogues, spearman_rho, spearman_p, pearson_r, pearson_p
        from marts.score_correlations
        where source = 'duo' and question_a = question_b
            and rating_kind_a = 'subjective' and rating_kind_b = 'objective'
        order by metric, scope
    """,
    )
    scatter = (
        alt.Chart(alt.Data(values=pairs))
        .mark_circle(opacity=0.35, size=40)
        .encode(
            x=alt.X("annotators_mean:Q", scale=alt.Scale(domain=[1, 5]), title="annotators' mean"),
            y=alt.Y("users_score:Q", scale=alt.Scale(domain=[1, 5]), title="user's own score"),
            color=alt.Color("language_setting:N", title=None),
            column=alt.Column("metric:N", title=None),
            tooltip=["metric:N", "language_setting:N", "users_score:Q", "annotators_mean:Q"],
        )
        .properties(width=150, height=150, title="Users' own scores against the three annotators' mean")
    )
    return Section(
        "DUO: what users felt and what annotators saw",
        "Each user scored their own dialogue (subjective); some dialogues were also scored by three annotators "
        "(objective). A diagonal cloud would mean they agree; the xRR chart says how far beyond chance they do "
        "(a bar is its 95% interval: one that covers 0 is no agreement), the table Spearman's ρ with its p-value.",
        [
            svg(heatmap),
            svg(scatter) if pairs else "",
            *duo_users_vs_annotators(con),
            table(correlations, "User vs annotators' mean, per metric and language:setting (marts.score_correlations)"),
        ],
    )


# ---- ReDial -----------------------------------------------------------------------------------

REDIAL_SIZE_MEASURES = ["conversations", "movie mentions", "distinct movies", "@id tags not in movieMentions"]


def redial_section(con: duckdb.DuckDBPyConnection, sources: list[str]) -> Section | None:
    if "redial" not in sources:
        return None
    sizes = rows(
        con,
        """
        with unresolved as (
            select dialogue_key, count(*) as tags from marts.redial_unresolved_mentions group by dialogue_key
        )
        unpivot (
            select dialogues.split,
                count(distinct dialogues.dialogue_key) as "conversations",
                count(movie_mentions.movie_id) as "movie mentions",
                count(distinct movie_mentions.movie_id) as "distinct movies",
                (select coalesce(sum(unresolved.tags), 0) from unresolved inner join marts.dialogues as d
                    using (dialogue_key) where d.split = dialogues.split) as "@id tags not in movieMentions"
            from marts.dialogues left join marts.movie_mentions using (dialogue_key)
            where dialogues.source = 'redial' group by dialogues.split
        ) on columns(* exclude (split)) into name measure value count
        order by split
    """,
    )
    size_chart = (
        alt.Chart(alt.Data(values=sizes))
        .mark_bar()
        .encode(
            x=alt.X("count:Q", title=None),
            y=alt.Y("split:N", title=None),
            color=alt.Color("split:N", legend=None),
            row=alt.Row(
                "measure:N",
                title=None,
                sort=REDIAL_SIZE_MEASURES,
                header=alt.Header(labelAngle=0, labelAlign="left", labelLimit=220),
            ),
            tooltip=["measure:N", "split:N", "count:Q"],
        )
        .resolve_scale(x="independent")
        .properties(
            width=WIDTH,
            height=50,
            title="Conversations, movie mentions, distinct movies and unresolved @id tags per split",
        )
    )
    return Section(
        "ReDial: movies and both workers' forms",
        "Every mentioned movie gets a form from the seeker and one from the recommender (suggested / seen / liked). "
        "α near 1 means the two forms say the same; 0 means no more agreement than chance; a bar is α's 95% interval. "
        "Some @id tags name a movie their conversation's movieMentions does not list (a documented release quirk): "
        "they are counted here and listed in marts.redial_unresolved_mentions.",
        [svg(size_chart), *redial_alpha_with_intervals(con)],
    )


# ---- DICES ------------------------------------------------------------------------------------


def dices_section(con: duckdb.DuckDBPyConnection, sources: list[str]) -> Section | None:
    if "dices" not in sources:
        return None
    answers = rows(
        con,
        """
        select dialogues.dataset_config as config, ratings.question,
            coalesce(ratings.value_label, '(no answer)') as answer, count(*) as ratings
        from marts.ratings inner join marts.dialogues using (dialogue_key)
        where ratings.source = 'dices'
            and (
                ratings.question in ('Q_overall', 'Q1_whole_conversation_evaluation')
                or ratings.question like '%overall'
            )
        group by all order by all
    """,
    )
    answer_chart = (
        alt.Chart(alt.Data(values=answers))
        .mark_bar()
        .encode(
            x=alt.X("sum(ratings):Q", stack="normalize", title="share of ratings", axis=alt.Axis(format="%")),
            y=alt.Y("question:N", title=None),
            color=alt.Color("answer:N", title="answer"),
            row=alt.Row("config:N", title="DICES"),
            tooltip=["config:N", "question:N", "answer:N", "ratings:Q"],
        )
        .properties(width=WIDTH - 120, height=150, title="Answers per question (overall questions)")
    )
    spread = rows(
        con,
        """
        select scope as config, entropy, plurality_share
        from marts.rating_distributions
        where source = 'dices' and question = 'Q_overall'
    """,
    )
    entropy_chart = item_histogram(
        spread, "entropy", "entropy of Q_overall answers per item (nats)", "Per-item disagreement"
    )
    plurality_chart = item_histogram(
        spread, "plurality_share", "share of the most common answer", "Per-item plurality share"
    )
    figures = [svg(answer_chart), svg(alt.hconcat(entropy_chart, plurality_chart)) if spread else ""]
    quality = rows(
        con,
        """
        select scope as config, mean_agreement_with_others
        from marts.rater_quality
        where source = 'dices' and mean_agreement_with_others is not null
    """,
    )
    if quality:
        quality_chart = item_histogram(
            quality,
            "mean_agreement_with_others",
            "share of a rater's answers that side with the others' plurality (mean over questions)",
            "Rater quality: who would a filter drop? (marts.rater_quality)",
            counted="raters",
        )
        figures.append(svg(quality_chart))
    figures.extend(dices_groups_beside_grasp(con))
    return Section(
        "DICES: who finds what unsafe",
        "Every item is rated by a large, demographically described pool. High entropy and a low plurality share "
        "mean raters split; a GAI above 1 means a group agrees more within itself than with everyone else, "
        "and its mark says whether chance rarely gives it (* p < .05, ** also after Benjamini–Hochberg).",
        figures,
    )


SECTION_BUILDERS: list[Callable[[duckdb.DuckDBPyConnection, list[str]], Section | None]] = [
    load_section,
    duo_section,
    redial_section,
    dices_section,
]

STYLE = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #222; background: #fafafa; }
header { background: #1f3a5f; color: #fff; padding: 1.2em 2em; }
header h1 { margin: 0 0 .2em; font-size: 1.5em; }
header p { margin: 0; opacity: .85; }
nav { padding: .6em 2em; background: #e8edf3; }
nav a { margin-right: 1.2em; color: #1f3a5f; }
section { background: #fff; margin: 1.2em 2em; padding: 1em 1.5em; border-radius: 6px; box-shadow: 0 1px 3px #0002; }
section h2 { margin-top: 0; }
.guide { color: #555; max-width: 60em; }
figure.chart { margin: 1em 0; overflow-x: auto; }
table { border-collapse: collapse; margin: 1em 0; font-size: .9em; }
caption { text-align: left; font-weight: 600; padding-bottom: .3em; }
th, td { border-bottom: 1px solid #ddd; padding: .25em .7em; text-align: left; }
.note { color: #555; font-size: .9em; }
"""


def render_page(db_path: Path, sources: list[str], sections: list[Section]) -> str:
    """The whole HTML document: header, table of contents, sections."""
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    anchors = [f"section-{index}" for index, _ in enumerate(sections)]
    nav = "".join(
        f'<a href="#{anchor}">{html.escape(s.title)}</a>' for anchor, s in zip(anchors, sections, strict=True)
    )
    body = "".join(
        f'<section id="{anchor}"><h2>{html.escape(s.title)}</h2><p class="guide">{html.escape(s.guide)}</p>'
        + "".join(s.figures)
        + "</section>"
        for anchor, s in zip(anchors, sections, strict=True)
    )
    return (
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        f"{REPORT_TITLE}"
        f"<style>{STYLE}</style></head><body>"
        "<header><h1>Conversational-AI evaluation warehouse</h1>"
        f"<p>{html.escape(db_path.name)} · sources: {html.escape(', '.join(sources))} · generated {generated}</p>"
        f"</header><nav>{nav}</nav>{body}</body></html>\n"
    )
