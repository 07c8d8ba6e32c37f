"""Replay every GRASP permutation test of a built warehouse with all P shuffles and sequentially
(`agreement_core.resampling.sequential_test`) at several h: what the stopping saves, and whether it
changes a decision. Measured, not argued: `resampling.stopping_count` says why its h changes none.

    python benchmarks/replay_sequential.py WAREHOUSE.duckdb [--permutations 1000] [--seed 20240601]
        [--h 10 20 25] [--questions '*']

WAREHOUSE is a built warehouse, opened read-only (its Monte Carlo may be off: this computes it).
Each question's values and groups are read as `int_agreement__group_figures` reads them and tested
by `agreement_core.group_figures`' own functions, one dimension at a time with the seed the model
uses, so the full run is the model's test. Per h (and the rule's, `stopping_count(P)`), it prints:
the share of the permutation work saved (group × shuffle evaluations, against the full run's), the
p ≤ 0.05 decisions (α, xRR and GAI of every group) and the GAI q < 0.05 decisions
(Benjamini–Hochberg over a dimension's groups) that differ from the full run's, and the seconds
the tests took (wall and CPU, one thread).
"""

import argparse
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

import duckdb
import numpy as np

from agreement_core import resampling
from agreement_core.group_figures import Memberships, QuestionValues, figures_of, point_figures, rater_values
from agreement_core.questions import EVERY_RATER, questions_of

LEVEL = float(resampling.SIGNIFICANCE)


@dataclass
class Run:
    """One way of testing (all P shuffles, or sequential with one h), summed over every dimension."""

    name: str
    stop_at: int
    evaluations: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    p_values: list[np.ndarray] = field(default_factory=list)  # per dimension: (3, groups) α, xRR, GAI
    q_values: list[np.ndarray] = field(default_factory=list)  # per dimension: GAI's q (groups,)

    def decisions(self) -> tuple[np.ndarray, np.ndarray]:
        p = np.concatenate([each.ravel() for each in self.p_values])
        q = np.concatenate(self.q_values)
        return p <= LEVEL, q < LEVEL


@dataclass
class Dimension:
    """What one dimension's test reads, computed once for every run."""

    question: QuestionValues
    name: str
    observed: object
    values: resampling.RaterValues
    all_counts: np.ndarray


def question_values(con: duckdb.DuckDBPyConnection, patterns: list[str]) -> Iterator[tuple[QuestionValues, object]]:
    """Each question's values and the rater groups, as `int_agreement__group_figures` reads them."""
    questions = questions_of(
        con.sql("select * from intermediate.int_agreement__questions").df(),
        con.sql("select * from reference.judgement_labels").df(),
    )
    groups = con.sql(
        "select group_id, group_dimension, group_value, rater_id from intermediate.int_agreement__rater_groups"
    ).df()
    question_ids = con.sql(
        "select distinct question_id from intermediate.int_agreement__judgements where is_agreement_value order by 1"
    ).fetchall()
    for (question_id,) in question_ids:
        question = questions[question_id]
        if not any(fnmatchcase("/".join((question.source, question.scope, question.question)), p) for p in patterns):
            continue
        values = con.sql(
            "select unit_id, rater_id, value_code from intermediate.int_agreement__judgements "
            f"where is_agreement_value and question_id = {question_id}"
        ).df()
        if len(values):
            yield QuestionValues.of(question, values), groups


def dimensions_of(values: QuestionValues, groups: object) -> Iterator[Dimension]:
    """The question's dimensions as `group_figures.dimension_tests` tests them."""
    memberships = Memberships.of(values, groups)
    all_counts = values.counts()
    _, observed = point_figures(memberships.group_counts(values), all_counts, values.question)
    for dimension in np.unique(memberships.dimensions):
        if dimension == EVERY_RATER:
            continue
        in_dimension = np.flatnonzero(memberships.dimensions == dimension)
        yield Dimension(
            values,
            str(dimension),
            figures_of(observed, in_dimension),
            rater_values(values, memberships, in_dimension),
            all_counts,
        )


def replay(dimension: Dimension, run: Run, seed: int, n_permutations: int) -> None:
    """The dimension's test as the model runs it, with the run's h; its work, time and p-values."""
    question = dimension.question.question
    rng = resampling.generator(seed, *question.name, dimension.name)
    wall, cpu = time.perf_counter(), time.process_time()
    test = resampling.group_permutation_test(
        dimension.observed,
        dimension.values,
        dimension.all_counts,
        question.metric,
        rng,
        n_permutations,
        stop_at=run.stop_at,
    )
    run.wall += time.perf_counter() - wall
    run.cpu += time.process_time() - cpu
    run.evaluations += int(test.n_computed.sum())
    run.p_values.append(np.stack([test.alpha_p, test.xrr_p, test.gai_p]))
    run.q_values.append(resampling.benjamini_hochberg(test.gai_p))


def report(runs: list[Run]) -> None:
    full = runs[0]
    if not full.p_values:
        print("no dimension with rater groups to test (only the dimension 'all'): nothing to replay")
        return
    p_full, q_full = full.decisions()
    columns = ("evaluations", 12), ("saved", 8), ("p≤0.05 changed", 16), ("q<0.05 changed", 16), ("wall s", 9)
    print(f"{'run':<16}" + "".join(f"{name:>{width}}" for name, width in columns) + f"{'cpu s':>9}")
    for run in runs:
        p, q = run.decisions()
        saved = 1 - run.evaluations / full.evaluations if full.evaluations else 0.0
        print(
            f"{run.name:<16}{run.evaluations:>12}{saved:>8.1%}{int((p != p_full).sum()):>16}"
            f"{int((q != q_full).sum()):>16}{run.wall:>9.1f}{run.cpu:>9.1f}"
        )
    print(f"figures tested: {p_full.size} (p ≤ 0.05: {int(p_full.sum())}); ", end="")
    print(f"GAI q-values: {q_full.size} (q < 0.05: {int(q_full.sum())})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("warehouse")
    parser.add_argument("--permutations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--h", type=int, nargs="+", default=[10, 20, 25])
    parser.add_argument("--questions", nargs="+", default=["*"], help="<source>/<scope>/<question> patterns")
    args = parser.parse_args()
    rule = resampling.stopping_count(args.permutations)
    runs = [Run("full P", args.permutations + 1)]
    runs += [Run(f"h = {h}" + (" (rule)" if h == rule else ""), h) for h in sorted({*args.h, rule})]
    with duckdb.connect(args.warehouse, read_only=True) as con:
        for values, groups in question_values(con, args.questions):
            for dimension in dimensions_of(values, groups):
                for run in runs:
                    replay(dimension, run, args.seed, args.permutations)
    print(f"{args.warehouse}: P = {args.permutations}, seed {args.seed}")
    report(runs)


if __name__ == "__main__":
    main()
