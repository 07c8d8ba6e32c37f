"""The analyst queries of issue 15, timed on a built warehouse (read-only), medians of RUNS.

    python benchmarks/analyst_queries.py DATABASE [RUNS]

Not yet part of `make bench`; a baseline to hold any change to how the build stores ratings against."""
import statistics
import sys
import time

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
   with forms as (select rating_id, dialogue_key, movie_id, question, value_label from marts.ratings where source = 'redial')
   select s.question, avg(cast(s.value_label = r.value_label as double)) as share_same, count(*) as n
   from forms s inner join forms r on s.dialogue_key = r.dialogue_key and s.movie_id = r.movie_id and s.question = r.question
   where s.rating_id like '%:initiator:%' and r.rating_id like '%:respondent:%' group by all order by all""",
 "agreement_one_group": """
   select * from marts.agreement where group_dimension = 'gender' and group_value = 'Woman' order by all""",
 "ratings_full_scan": "select count(*), count(distinct rater_key) from marts.ratings",
}
db = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
con = duckdb.connect(db, read_only=True)
for name, sql in QUERIES.items():
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        rows = con.execute(sql).fetchall()
        times.append(time.perf_counter() - started)
    print(f"{name:30s} median {statistics.median(times):6.3f} s  rows {len(rows)}  first {rows[0] if rows else None}")
