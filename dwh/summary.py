"""`dwh summary`: what the marts hold, per source."""

from pathlib import Path

import duckdb

from common.database import connect_read_only
from common.errors import DwhError
from dwh.building.freshness import marts_build, say_if_older_than_last_load

MARTS = ["dialogues", "turns", "raters", "ratings"]


def marts_summary(db_path: Path) -> str:
    """Row counts of each mart per source, read-only."""
    if not db_path.exists():
        raise DwhError(f"{db_path}: no warehouse yet (run dwh ingest and dwh build)")
    con = connect_read_only(db_path)
    try:
        existing = {
            row[0]
            for row in con.execute(
                "select table_name from information_schema.tables where table_schema = 'marts'"
            ).fetchall()
        }
        missing = [m for m in MARTS if m not in existing]
        if missing:
            raise DwhError(f"{db_path}: marts {', '.join(missing)} are not built yet (run dwh build)")
        counts = " union all ".join(
            f"select '{m}' as mart, source, count(*) as n from marts.{m} group by source" for m in MARTS
        )
        say_if_older_than_last_load(marts_build(con), "dwh summary")
        relation = con.sql(f"pivot ({counts}) on source using first(n) group by mart order by mart")
        lines = ["Rows per mart and source:", str(relation), *release_quirk_lines(con, existing), *judges_lines(con)]
        lines += replacement_lines(con, existing)
        return "\n".join(lines).rstrip()
    finally:
        con.close()


def release_quirk_lines(con: duckdb.DuckDBPyConnection, marts: set[str]) -> list[str]:
    """Documented release properties the load found: kept and reported in marts, so not warnings."""
    if "redial_unresolved_mentions" not in marts:
        return []
    tags, conversations = con.execute(
        "select count(*), count(distinct dialogue_key) from marts.redial_unresolved_mentions"
    ).fetchone()
    if not tags:
        return []
    return [
        "Documented release quirks found (kept, not errors):",
        f"  ReDial: {tags} @id tag(s) in {conversations} conversation(s) name a movie the conversation's "
        "movieMentions does not list; see marts.redial_unresolved_mentions",
    ]


def judges_lines(con: duckdb.DuckDBPyConnection) -> list[str]:
    """How many judges `dwh ingest --judges` loaded, and their judgements per source."""
    has_table = con.execute(
        "select count(*) from duckdb_tables() where database_name = current_database() and schema_name = 'raw' "
        "and table_name = 'judge_judgements'"
    ).fetchone()[0]
    if not has_table:
        return []
    judges, judgements, per_source = con.execute(
        "select count(distinct judge), count(*), "
        "(select string_agg(source || ' ' || n, ', ' order by source) "
        " from (select source, count(*) as n from raw.judge_judgements group by source)) "
        "from raw.judge_judgements"
    ).fetchone()
    line = f"Judges loaded: {judges:,} judge(s), {judgements:,} judgement(s)"
    return [line + (f" ({per_source})" if per_source else "")]


def replacement_lines(con: duckdb.DuckDBPyConnection, marts: set[str]) -> list[str]:
    """How many judges replace which perspectives (`judge_replacement`): per source and base
    perspective, the judges that replace its raters on at least one question, and on every question
    where they could be tested."""
    if "judge_replacement" not in marts:
        return []
    found = con.execute(
        """
        with per_judge as (
            select source, reference_dimension, judge,
                count(*) filter (where replaces) as replaced, count(replaces) as tested
            from marts.judge_replacement
            where reference_value = 'all'
            group by all
        )
        select source, reference_dimension, count(*) as judges,
            count(*) filter (where replaced > 0) as on_some,
            count(*) filter (where tested > 0 and replaced = tested) as on_all,
            string_agg(judge || ' ' || replaced || '/' || tested, ', ' order by judge)
                filter (where replaced > 0) as which
        from per_judge
        group by all
        order by source, reference_dimension
        """
    ).fetchall()
    if not found:
        return []
    lines = ["Judges that replace a perspective's raters (alt-test; questions replaced/tested):"]
    for source, perspective, judges, on_some, on_all, which in found:
        lines.append(
            f"  {source} {perspective}: {on_some} of {judges} judge(s) on some question, {on_all} on every "
            f"tested question" + (f" ({which})" if which else "")
        )
    return lines
