"""Judges for `make bench`'s judge paths: N judges, each judging every unit of the three datasets
that a built warehouse holds, written as `dwh ingest --judges` reads them (one Parquet file per
judge). Each judge's value is a label of the question's label set drawn at random from a hash of
the seed, the judge and the unit: a cost benchmark, so their character does not matter.

    python benchmarks/bench_judges.py BUILT_DB OUT_DIR [--judges 20] [--seed 0]
"""

import argparse
import sys
from pathlib import Path

import duckdb

# every unit a judge can judge: (source, dialogue_key, question, movie_id) of the human ratings, with
# the labels of the question's label set that are judgements (a label counting as missing is none)
UNITS_SQL = """
create temp table judged_units as
with

units as (
    select distinct source, rating_kind, dialogue_key, question, movie_id
    from marts.ratings
),

labels as (
    select
        questions.source,
        questions.rating_kind,
        questions.question,
        list(labels.value_text order by labels.value_code) as labels
    from reference.judgement_questions as questions
    inner join reference.judgement_labels as labels on questions.label_set = labels.label_set
    where not labels.counts_as_missing
    group by all
)

select distinct units.dialogue_key, units.question, units.movie_id, labels.labels
from units
inner join labels using (source, rating_kind, question)
"""

JUDGE_SQL = """
copy (
    select
        $judge as judge,
        dialogue_key,
        question,
        movie_id,
        labels[1 + (hash($seed, $judge, dialogue_key, question, movie_id) % len(labels))::bigint] as value
    from judged_units
    qualify row_number() over (partition by dialogue_key, question, movie_id) = 1
) to '{path}' (format parquet)
"""


def write_judges(built_db: Path, out_dir: Path, n_judges: int, seed: int) -> list[Path]:
    """Write `out_dir/judge_NN.parquet` for N judges; returns the files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(built_db), read_only=True)
    try:
        con.execute(UNITS_SQL)
        written = []
        for number in range(1, n_judges + 1):
            path = out_dir / f"judge_{number:02d}.parquet"
            con.execute(
                JUDGE_SQL.format(path=str(path).replace("'", "''")), {"judge": f"judge_{number:02d}", "seed": seed}
            )
            written.append(path)
        return written
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("built_db", type=Path)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--judges", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    files = write_judges(args.built_db, args.out_dir, args.judges, args.seed)
    print(f"{len(files)} judge file(s) in {args.out_dir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
