"""How well automatic evaluators (judges) agree with each human perspective on one question: the
rows of `judge_agreement`. A judge is one more set of judgements on the question's units, and
every figure is computed by the functions the human figures use: xRR (`maths.cross_reliability`)
with its bootstrap (`resampling`), the groups' counts and their permutations
(`resampling.RaterValues`), Benjamini–Hochberg.

A reference is a set of human values on the units: a source's base references (DUO `user` and
`annotators`, DICES `raters` and `expert`, ReDial `seeker` and `recommender`), each split by the
agreement's rater groups where its raters have them (DICES's demographics)."""

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from agreement_core import maths, memo, resampling
from agreement_core.judge_figures.judge_floors import ALIGNMENT_FLOOR, MIN_CEILING_UNITS, MIN_JUDGE_UNITS, MIN_XRR_UNITS
from agreement_core.judge_figures.judge_references import JudgedQuestion, JudgeQuestion, Reference, inputs_of
from agreement_core.questions import SLOT
from agreement_core.settings import MonteCarloSettings

# a judge's rows of a question are stored, reused and replaced together (`agreement_core.memo`)
JUDGE_SLOT = ["judge", *SLOT]
COLUMNS = {
    # "string", not object: an empty frame's columns would reach DuckDB as INTEGER
    **dict.fromkeys(JUDGE_SLOT, "string"),
    "reference_dimension": "string",
    "reference_value": "string",
    "n_units": "int64",
    "xrr": "float64",
    "xrr_ci_low": "float64",
    "xrr_ci_high": "float64",
    "spearman_rho": "float64",
    "spearman_p": "float64",
    "kendall_tau_b": "float64",
    "kendall_p": "float64",
    "plurality_agreement": "float64",
    "member_agreement": "float64",
    "human_xrr_median": "float64",
    "n_human_raters": "Int64",
    "judge_percentile": "float64",
    "xrr_with_rest": "float64",
    "alignment": "float64",
    "alignment_p": "float64",
    "alignment_q": "float64",
    "min_attainable_p": "float64",
    memo.FINGERPRINT: "string",
    memo.COMPUTED_AT: "datetime64[us]",
    memo.ROWS_DIGEST: "string",
}


# ------------------------------------------------------------------------------------- figures


def cross_with_references(task: JudgeQuestion) -> maths.CrossReliability:
    """xRR of every judge (X) with every reference (Y): arrays `(judges, references)`; null where it
    cannot be estimated (`estimable`)."""
    references = task.stacked()
    cross = maths.cross_reliability(task.judge_counts[:, :, None], references[:, None], task.metric)
    xrr = estimable(cross, varies_on_judged_units(task.judge_counts, references))
    return maths.CrossReliability(cross.n_units, cross.observed_disagreement, cross.expected_disagreement, xrr)


def varies_on_judged_units(judge_counts: np.ndarray, references: np.ndarray) -> np.ndarray:
    """Whether each reference gives at least two different values on each judge's units: `judge_counts`
    `(labels, judges, units)`, `references` `(labels, references, units)` → `(judges, references)`.
    Against a constant reference the observed disagreement is the expected one by construction: there
    is nothing to agree with, and the xRR (0 up to float noise, 5e-14) is no figure."""
    judged = (judge_counts.sum(axis=0) > 0).astype(float)  # (J, U)
    given = np.einsum("lru,ju->ljr", (references > 0).astype(float), judged)  # (L, J, R)
    return (given > 0).sum(axis=0) >= 2


def estimable(cross: maths.CrossReliability, varies: np.ndarray | bool = True) -> np.ndarray:
    """The xRR where it can be estimated: at least MIN_XRR_UNITS units, an expected disagreement above
    float noise, and a reference that varies on those units (`varies_on_judged_units`); NaN elsewhere."""
    with np.errstate(invalid="ignore"):
        usable = (cross.n_units >= MIN_XRR_UNITS) & (cross.expected_disagreement > maths.XRR_ZERO) & varies
    return np.where(usable, cross.xrr, np.nan)


def rest_of(reference: Reference) -> np.ndarray:
    """The values of the base reference's raters outside a group (none for a base reference)."""
    return reference.base.counts() - reference.counts if reference.is_group else np.zeros_like(reference.counts)


def cross_with_rests(task: JudgeQuestion) -> np.ndarray:
    """xRR of every judge with every group reference's rest; NaN for base references."""
    rests = np.stack([rest_of(reference) for reference in task.references], axis=1)
    cross = maths.cross_reliability(task.judge_counts[:, :, None], rests[:, None], task.metric)
    xrr = estimable(cross, varies_on_judged_units(task.judge_counts, rests))
    is_group = np.array([reference.is_group for reference in task.references])
    return np.where(is_group[None, :], xrr, np.nan)


def alignment_of(xrr: np.ndarray, xrr_with_rest: np.ndarray) -> np.ndarray:
    """xRR with the group ÷ xRR with the rest; NaN where the rest's is 0 within float noise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(xrr_with_rest) >= maths.XRR_ZERO, xrr / xrr_with_rest, np.nan)


def defined_alignments(with_rest: np.ndarray) -> np.ndarray:
    """Where an alignment is read: xrr_with_rest at least ALIGNMENT_FLOOR (`(judges, references)`)."""
    with np.errstate(invalid="ignore"):
        return np.nan_to_num(with_rest, nan=-np.inf) >= ALIGNMENT_FLOOR


def human_ceiling(task: JudgeQuestion, judge_xrr: np.ndarray, n_units: np.ndarray) -> pd.DataFrame:
    """Per reference: each of its raters as X against the reference's others as Y; the median over
    the raters with ≥ MIN_CEILING_UNITS units, how many, and each judge's percentile among them
    (null where the judge shares fewer than MIN_JUDGE_UNITS units with the reference).
    Rows `(judges × references)`, judges first. A reference with one value per unit has none."""
    medians, counts, percentiles = [], [], []
    for number, reference in enumerate(task.references):
        if reference.counts.sum(axis=0).max(initial=0) <= 1:
            medians.append(np.nan), counts.append(pd.NA), percentiles.append(np.full(len(task.judges), np.nan))
            continue
        cross = reference.ceiling_xrr(task.metric)
        kept = cross.xrr[(cross.n_units >= MIN_CEILING_UNITS) & ~np.isnan(cross.xrr)]
        medians.append(float(np.median(kept)) if kept.size else np.nan)
        counts.append(int(kept.size))
        with np.errstate(invalid="ignore"):
            share_below = (kept[None, :] < judge_xrr[:, number, None]).mean(axis=1) if kept.size else np.nan
        too_few = np.isnan(judge_xrr[:, number]) | (n_units[:, number] < MIN_JUDGE_UNITS)
        percentiles.append(np.where(too_few, np.nan, share_below))
    return pd.DataFrame(
        {
            "human_xrr_median": np.tile(medians, len(task.judges)),
            "n_human_raters": pd.array(np.tile(np.array(counts, dtype=object), len(task.judges)), dtype="Int64"),
            "judge_percentile": np.stack(percentiles, axis=1).ravel(),
        }
    )


def label_agreement(task: JudgeQuestion) -> tuple[np.ndarray, np.ndarray]:
    """Nominal questions: per (judge, reference) over the units both have, the share where the
    judge's value is among the reference's most frequent (ties count), and the mean share of the
    reference's values equal to the judge's."""
    references = task.stacked()  # (L, R, U)
    n_reference = references.sum(axis=0)  # (R, U)
    judge = task.judge_counts[:, :, None]  # (L, J, 1, U)
    shared = (judge.sum(axis=0) > 0) & (n_reference[None] > 0)  # (J, R, U)
    given = (judge * references[:, None]).sum(axis=0)  # the reference's count of the judge's label
    is_plurality = given >= references.max(axis=0)[None]
    with np.errstate(divide="ignore", invalid="ignore"):
        n_shared = shared.sum(axis=-1)
        plurality = np.where(shared, is_plurality, False).sum(axis=-1) / n_shared
        member = np.where(shared, given / np.where(shared, n_reference[None], 1), 0.0).sum(axis=-1) / n_shared
    return np.where(n_shared > 0, plurality, np.nan), np.where(n_shared > 0, member, np.nan)


def score_correlations(task: JudgeQuestion) -> dict[str, np.ndarray]:
    """Ordered questions: Spearman's ρ (`maths.correlations`, as the scores' correlations) and Kendall's
    τ-b (scipy's), with their p, between the judge's value and the mean of the reference's values per
    unit, over the units both have."""
    # imported here: scipy.stats takes a second or two to import, which a build without judges never pays
    from scipy import stats

    codes = task.question.codes
    shape = (len(task.judges), len(task.references))
    figures = {name: np.full(shape, np.nan) for name in ("spearman_rho", "spearman_p", "kendall_tau_b", "kendall_p")}
    judge_value = np.tensordot(codes, task.judge_counts, axes=1)  # (J, U): 0 where no value
    has_judge = task.judge_counts.sum(axis=0) > 0
    for number, reference in enumerate(task.references):
        n_reference = reference.counts.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean_value = np.tensordot(codes, reference.counts, axes=1) / n_reference
        for judge in range(len(task.judges)):
            shared = has_judge[judge] & (n_reference > 0)
            if shared.sum() < 2:
                continue
            x, y = judge_value[judge, shared], mean_value[shared]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a constant side: scipy warns and gives NaN, as we report it
                kendall = stats.kendalltau(x, y, variant="b")
            spearman = maths.correlations(x, y)
            figures["spearman_rho"][judge, number] = spearman["spearman_rho"]
            figures["spearman_p"][judge, number] = spearman["spearman_p"]
            figures["kendall_tau_b"][judge, number], figures["kendall_p"][judge, number] = kendall
    return figures


# ---------------------------------------------------------------------------------- Monte Carlo


def xrr_intervals(task: JudgeQuestion, settings: MonteCarloSettings) -> tuple[np.ndarray, np.ndarray]:
    """95% percentile bootstrap interval of each (judge, reference) xRR: the judge's units with a
    reference value, resampled with replacement (the same draws for all of a judge's references)."""
    shape = (len(task.judges), len(task.references))
    low, high = np.full(shape, np.nan), np.full(shape, np.nan)
    references = task.stacked()  # (L, R, U)
    for judge, name in enumerate(task.judges):
        units = (task.judge_counts[:, judge].sum(axis=0) > 0) & (references.sum(axis=(0, 1)) > 0)
        if not units.any():
            continue
        stacked = np.concatenate([task.judge_counts[:, [judge]][:, :, units], references[:, :, units]], axis=1)
        figure = resampling.xrr_draws(resampling.UnitPatterns.of(stacked, task.metric))
        rng = resampling.generator(settings.seed, *task.question.name, name, "judge bootstrap")
        draws = resampling.bootstrap({name: figure}, rng, settings.n_bootstrap)[name]
        low[judge], high[judge] = resampling.percentile_interval(draws)
    return low, high


@dataclass
class AlignmentTests:
    """The alignment's permutation p and its Benjamini–Hochberg q, the shuffles each p counts
    (`resampling.SequentialTest`) and the smallest p its test can give (`resampling.smallest_p`):
    arrays `(judges, references)`, NaN (0 shuffles) for base references."""

    p_values: np.ndarray
    q_values: np.ndarray
    n_shuffles: np.ndarray
    min_p: np.ndarray

    def of_judges(self) -> list["AlignmentTests"]:
        """Each judge's tests, `(1, references)` each, in the judges' order."""
        return [
            AlignmentTests(p[None], q[None], n[None], floor[None])
            for p, q, n, floor in zip(self.p_values, self.q_values, self.n_shuffles, self.min_p)
        ]


def alignment_tests(task: JudgeQuestion, settings: MonteCarloSettings, *, stop_at: int | None = None) -> AlignmentTests:
    """The alignment's permutation p of every judge and group reference (`dimension_test`), and its
    Benjamini–Hochberg q over the groups of one judge and dimension."""
    shape = (len(task.judges), len(task.references))
    tests = AlignmentTests(
        np.full(shape, np.nan), np.full(shape, np.nan), np.zeros(shape, dtype=np.int64), np.full(shape, np.nan)
    )
    for numbers, members in zip(dimension_numbers(task), task.dimensions.values()):
        test = dimension_test(task, numbers, members, settings, stop_at)
        tests.p_values[:, numbers], tests.n_shuffles[:, numbers] = test.p_values, test.n_shuffles
        tests.min_p[:, numbers] = test.min_p
    tests.q_values = q_values_of(task, tests.p_values)
    return tests


def dimension_numbers(task: JudgeQuestion) -> list[np.ndarray]:
    """The reference numbers of each (base reference, dimension)'s groups, in group-number order."""
    return [
        np.array(
            [
                n
                for n, r in enumerate(task.references)
                if r.is_group and r.base.name == base_name and r.dimension == dimension
            ]
        )
        for base_name, dimension in task.dimensions
    ]


def q_values_of(task: JudgeQuestion, p_values: np.ndarray) -> np.ndarray:
    """Benjamini–Hochberg q over the groups of one judge and dimension (a null p is no member of the
    family): `(judges, references)`."""
    q_values = np.full(p_values.shape, np.nan)
    for numbers in dimension_numbers(task):
        for judge in range(len(task.judges)):
            q_values[judge, numbers] = resampling.benjamini_hochberg(p_values[judge, numbers])
    return q_values


def dimension_test(
    task: JudgeQuestion, numbers: np.ndarray, members: pd.DataFrame, settings: MonteCarloSettings, stop_at: int | None
) -> resampling.SequentialTest:
    """The alignment test of every judge with the groups of one dimension (reference `numbers`, in
    group-number order; `members` as `JudgeQuestion.dimensions`): the group labels shuffled among the
    base reference's raters, sizes kept, the same shuffles for every judge; sequential
    (`resampling.sequential_test`, `stop_at` as there): a group's shuffles stop being computed once
    every judge's p with it is decided. Where the raters' distinct assignments to the groups are
    fewer than P (3 + 3 raters: 20), each is tested once and the p is exact, as GRASP's test does
    (`resampling.group_label_test`). Arrays `(judges, groups)`."""
    first = task.references[numbers[0]]
    base = first.base
    rater_values = base.dimension_values(members)
    rng = resampling.generator(settings.seed, *task.question.name, base.name, first.dimension, "alignment")
    base_counts = base.counts()
    group = task.stacked([task.references[n] for n in numbers])
    observed = alignment_of(*alignments_with(task.judge_counts, group, base_counts, task.metric))  # (J, G)

    def null_of(labels_by_rater: np.ndarray, groups: np.ndarray) -> np.ndarray:
        return permuted_alignments(task, rater_values, base_counts, labels_by_rater, groups)

    def elements_per_shuffle(n_groups: int) -> int:
        # the groups' and rests' counts and their factors (`alignments_with`); ordinal: per judge too
        per_set = len(task.judges) + 1 if task.metric.level == "ordinal" else 6
        return rater_values.n_labels * n_groups * rater_values.n_units * per_set

    return resampling.group_label_test(
        observed, null_of, rater_values.rater_groups, rng, settings.n_permutations, elements_per_shuffle, stop_at
    )


def alignments_with(
    judge_counts: np.ndarray, group_counts: np.ndarray, base_counts: np.ndarray, metric: maths.Metric
) -> tuple[np.ndarray, np.ndarray]:
    """xRR of every judge with every group and with its rest. `judge_counts` `(labels, judges, units)`,
    `group_counts` `(labels, ..., groups, units)`: arrays `(..., judges, groups)`. Where δ is fixed the
    sums of every judge with every group are matrix products over the units
    (`maths.cross_sums_of_sets`: a batch of shuffles costs products, not arrays of labels × shuffles
    × groups × units per judge); ordinal δ depends on each pair's totals and is summed directly."""
    if metric.level == "ordinal":
        extra_axes = (1,) * (group_counts.ndim - 3)  # permutations, say
        judge = judge_counts.reshape(
            judge_counts.shape[0], *extra_axes, judge_counts.shape[1], 1, judge_counts.shape[2]
        )
        group = group_counts[..., None, :, :]
        rest = base_counts.reshape(base_counts.shape[0], *[1] * (group.ndim - 2), -1) - group
        return maths.cross_reliability(judge, group, metric).xrr, maths.cross_reliability(judge, rest, metric).xrr
    n_labels, n_units = group_counts.shape[0], group_counts.shape[-1]
    groups = group_counts.reshape(n_labels, -1, n_units)  # every (..., group) a set
    rests = base_counts[:, None, :] - groups

    def with_sets(sets: np.ndarray) -> np.ndarray:
        xrr = maths.cross_sums_of_sets(judge_counts, sets, metric).figures().xrr  # (judges, sets)
        by_set = xrr.reshape(judge_counts.shape[1], *group_counts.shape[1:-1])  # (judges, ..., groups)
        return np.moveaxis(by_set, 0, -2)

    return with_sets(groups), with_sets(rests)


def permuted_alignments(
    task: JudgeQuestion,
    rater_values: resampling.RaterValues,
    base_counts: np.ndarray,
    shuffled: np.ndarray,
    groups: np.ndarray | None = None,
) -> np.ndarray:
    """`(permutations, judges, groups)`: each judge's alignment with each of the given groups
    (default every group) under each shuffle (`shuffled` `(permutations, raters)`)."""
    group = rater_values.group_counts(shuffled, groups)  # (L, P, G, U)
    return alignment_of(*alignments_with(task.judge_counts, group, base_counts, task.metric))


# ------------------------------------------------------------------------------------------ rows


def judged_question_rows(
    judged: JudgedQuestion, settings: MonteCarloSettings, stored: memo.Memo | None = None
) -> pd.DataFrame:
    """Every judge's rows of the question, each judge's from its own task (the rows `stored` holds
    where they were computed from the same inputs): a judge's figures depend on no other judge. The
    judges computed share their alignment tests' shuffles, the same for every judge
    (`dimension_test`): the tests run once for all of them (`alignment_tests`)."""
    tasks = {(judge, *judged.question.name): judged.task([judge]) for judge in judged.judges}  # slot: task
    inputs = {slot: lambda task=task: inputs_of(task, settings) for slot, task in tasks.items()}
    fingerprints, stale = memo.stale_slots(stored, inputs)
    question = judged.question
    tests = None
    if stale and settings.wants(question.source, question.scope, question.question):
        together = judged.task([judge for judge, *_ in stale])
        tests = dict(zip(together.judges, alignment_tests(together, settings).of_judges()))
    rows = [
        memo.marked(
            stored,
            slot,
            fingerprints.get(slot),
            lambda task=task, judge=slot[0]: question_rows(task, settings, tests and tests[judge]),
        )
        for slot, task in tasks.items()
    ]
    return pd.concat(rows, ignore_index=True)


def question_rows(
    task: JudgeQuestion, settings: MonteCarloSettings, alignment: AlignmentTests | None = None
) -> pd.DataFrame:
    """One row per (judge, reference) of the question: `COLUMNS` but the fingerprint's. `alignment`:
    the task's alignment tests where they were run already (with other judges'), else run here."""
    cross = cross_with_references(task)
    n_judges, n_references = cross.xrr.shape
    with_rest = cross_with_rests(task)
    defined = defined_alignments(with_rest)
    rows = pd.DataFrame(
        {
            "judge": np.repeat(task.judges, n_references),
            "reference_dimension": np.tile([r.dimension for r in task.references], n_judges),
            "reference_value": np.tile([r.value for r in task.references], n_judges),
            "n_units": cross.n_units.ravel().astype(int),
            "xrr": cross.xrr.ravel(),
            "xrr_with_rest": with_rest.ravel(),
            "alignment": np.where(defined, alignment_of(cross.xrr, with_rest), np.nan).ravel(),
        }
    )
    if task.question.level == "nominal":
        plurality, member = label_agreement(task)
        rows = rows.assign(plurality_agreement=plurality.ravel(), member_agreement=member.ravel())
    else:
        rows = rows.assign(**{name: values.ravel() for name, values in score_correlations(task).items()})
    rows = pd.concat([rows, human_ceiling(task, cross.xrr, cross.n_units)], axis=1)
    question = task.question
    if settings.wants(question.source, question.scope, question.question):
        low, high = xrr_intervals(task, settings)
        no_interval = np.isnan(cross.xrr) | (cross.n_units < MIN_JUDGE_UNITS)
        tests = alignment or alignment_tests(task, settings)
        rows = rows.assign(
            xrr_ci_low=np.where(no_interval, np.nan, low).ravel(),
            xrr_ci_high=np.where(no_interval, np.nan, high).ravel(),
            alignment_p=tests.p_values.ravel(),
            alignment_q=tests.q_values.ravel(),
            min_attainable_p=tests.min_p.ravel(),
        )
    return rows.assign(**dict(zip(SLOT, question.name)))


def as_result(rows: list[pd.DataFrame]) -> pd.DataFrame:
    """Every question's rows in the model's columns and types (figures not computed are null)."""
    if not rows:
        return pd.DataFrame({column: pd.Series(dtype=dtype) for column, dtype in COLUMNS.items()})
    return pd.concat(rows, ignore_index=True).reindex(columns=list(COLUMNS)).astype(COLUMNS)
