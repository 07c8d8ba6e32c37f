"""The analyst queries of issue 15, timed on a built warehouse (opened read-only), medians of RUNS.

    python benchmarks/analyst_queries.py DATABASE [--runs 3] [--json RESULT.json]

What people run on the marts, so that a faster build is not paid for by slower queries: `make
bench` times them at every scale on the warehouse path (b) built, and BENCHMARKS.md shows them."""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import duckdb

QUERIES = {
    "dices_yes_by_gender_race": """
        select raters.gender, raters.race, avg(cast(ratings.value_label = 'Yes' as double)) as share_yes, count(*) as n
        from marts.ratings inner join marts.raters on ratings.rater_key = raters.rater_key
        where ratings.source = 'dices' and ratings.question = 'Q_overall' group by all order by all""",
    "duo_user_vs_annotator_mean": """
        select question, rating_kind, avg(value_numeric) as mean_score, count(*) as n
        from marts.ratings where source = 'duo' group by all order by all""",
    "redial_form_agreement": """
        with forms as (
            select rating_id, dialogue_key, movie_id, question, value_label from marts.ratings where source = 'redial')
        select s.question, avg(cast(s.value_label = r.value_label as double)) as share_same, count(*) as n
        from forms s inner join forms r
            on s.dialogue_key = r.dialogue_key and s.movie_id = r.movie_id and s.question = r.question
        where s.rating_id like '%:initiator:%' and r.rating_id like '%:respondent:%' group by all order by all""",
    "agreement_one_group": """
        select * from marts.agreement where group_dimension = 'gender' and group_value = 'Woman' order by all""",
    "ratings_full_scan": "select count(*), count(distinct rater_key) from marts.ratings",
}


def time_queries(database: Path, runs: int) -> dict[str, dict]:
    """{query name: {median_s, rows}} over `runs` runs of each query on one read-only connection."""
    con = duckdb.connect(str(database), read_only=True)
    try:
        timed = {}
        for name, sql in QUERIES.items():
            times = []
            for _ in range(runs):
                started = time.perf_counter()
                rows = con.execute(sql).fetchall()
                times.append(time.perf_counter() - started)
            timed[name] = {"median_s": statistics.median(times), "rows": len(rows)}
        return timed
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the timings here")
    args = parser.parse_args(argv)
    timed = time_queries(args.database, args.runs)
    for name, result in timed.items():
        print(f"{name:30s} median {result['median_s']:6.3f} s  rows {result['rows']}")
    if args.json:
        args.json.write_text(json.dumps(timed) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
