"""Small rater pools (issue 63, case 9): with 3 + 3 raters there are only 20 distinct ways to deal
the group labels, so no permutation p can reach 0.05. Where the distinct assignments are fewer than
the permutations, GRASP's test enumerates them exactly (each once, none drawn); every p has the
smallest p its test can give beside it (`min_attainable_p`); a large pool's test is the Monte Carlo
test it was, draw for draw."""

import itertools
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from agreement_core import maths, resampling
from agreement_core.questions import Question
from tests.dataset_folders import write_dataset
from tests.helpers import query, run_dwh

QUESTION = Question(1, "study", "all", "judgement", "safe", np.array([0, 1]), "nominal")


def pool(sizes: tuple[int, ...], n_units: int = 12, seed: int = 4) -> tuple[resampling.RaterValues, np.ndarray]:
    """Every rater on every unit, binary values; raters numbered group by group."""
    rng = np.random.default_rng(seed)
    rater_groups = np.repeat(np.arange(len(sizes)), sizes)
    units, raters = np.meshgrid(np.arange(n_units), np.arange(rater_groups.size), indexing="ij")
    labels = rng.integers(0, 2, units.size)
    values = resampling.RaterValues(labels, raters.ravel(), units.ravel(), rater_groups, 2, n_units)
    all_counts = np.zeros((2, n_units))
    np.add.at(all_counts, (labels, units.ravel()), 1)
    return values, all_counts


def observed_of(values: resampling.RaterValues, all_counts: np.ndarray) -> maths.GroupFigures:
    counts = values.group_counts(values.rater_groups[None, :])[:, 0]
    return maths.group_figures(counts, all_counts, QUESTION.metric)


@pytest.mark.parametrize(("sizes", "distinct"), [((3, 3), 20), ((2, 2, 2), 90), ((4, 3), 35), ((5, 5), 252)])
def test_the_distinct_assignments_are_every_way_to_deal_the_labels_once(sizes: tuple[int, ...], distinct: int) -> None:
    groups = np.repeat(np.arange(len(sizes)), sizes)
    assignments = resampling.distinct_assignments(groups, most=1000)
    assert assignments is not None and len(assignments) == distinct == resampling.n_distinct_assignments(groups)
    assert len({tuple(row) for row in assignments}) == distinct
    assert all(np.array_equal(np.bincount(row), np.bincount(groups)) for row in assignments)
    assert any(np.array_equal(row, groups) for row in assignments)  # the observed one among them
    assert resampling.distinct_assignments(groups, most=distinct - 1) is None


def test_three_and_three_raters_are_tested_exactly_and_cannot_reach_0_05() -> None:
    values, all_counts = pool((3, 3))
    observed = observed_of(values, all_counts)
    rng = np.random.default_rng(0)

    test = resampling.group_permutation_test(observed, values, all_counts, QUESTION.metric, rng, 1000)

    assert test.exact and test.min_p == pytest.approx(0.1)
    assert np.all(test.gai_p[~np.isnan(test.gai_p)] >= 0.1)
    # the exact p by brute force: every one of the 6! orders of the labels, each distinct assignment 36 times
    nulls = []
    for order in itertools.permutations(values.rater_groups):
        counts = values.group_counts(np.array([order]))[:, 0]
        nulls.append(maths.group_figures(counts, all_counts, QUESTION.metric).gai)
    null = np.array(nulls)
    tol = resampling.TIE_TOLERANCE
    valid = (~np.isnan(null)).sum(axis=0)  # the assignments whose figure exists, as every p counts them
    at_least = (null >= observed.gai - tol).sum(axis=0) / valid
    at_most = (null <= observed.gai + tol).sum(axis=0) / valid
    np.testing.assert_allclose(test.gai_p, np.minimum(1, 2 * np.minimum(at_least, at_most)), rtol=1e-12)
    assert rng.random() == np.random.default_rng(0).random()  # nothing drawn


def test_a_large_pool_keeps_its_monte_carlo_test_draw_for_draw() -> None:
    values, all_counts = pool((10, 9), n_units=8)
    assert resampling.n_distinct_assignments(values.rater_groups) > 1000
    observed = observed_of(values, all_counts)

    test = resampling.group_permutation_test(
        observed, values, all_counts, QUESTION.metric, np.random.default_rng(11), 1000
    )

    # the test as it was: the P shuffles drawn at once from the same generator, tested sequentially
    shuffled = np.random.default_rng(11).permuted(np.tile(values.rater_groups, (1000, 1)), axis=1)

    def null_of(shuffles: slice, groups: np.ndarray) -> np.ndarray:
        figures = maths.group_figures(values.group_counts(shuffled[shuffles], groups), all_counts, QUESTION.metric)
        return np.stack([figures.alpha, figures.xrr, figures.gai], axis=1)

    before = resampling.sequential_test(
        np.stack([observed.alpha, observed.xrr, observed.gai]),
        null_of,
        1000,
        lambda n_groups: values.n_labels * n_groups * values.n_units + values.unit_index.size,
    )
    assert not test.exact and test.min_p == pytest.approx(2 / 1001)
    np.testing.assert_array_equal(np.stack([test.alpha_p, test.xrr_p, test.gai_p]), before.p_values)


def test_the_smallest_attainable_p_is_two_over_the_assignments_or_the_shuffles_plus_one() -> None:
    assert resampling.smallest_p(20, exact=True) == 0.1
    assert resampling.smallest_p(1000, exact=False) == 2 / 1001
    assert resampling.smallest_p(2, exact=True) == 1.0
    assert math.isclose(resampling.smallest_p(252, exact=True), 2 / 252)


def small_pool_study(folder: Path) -> Path:
    """14 raters on 20 units: genders 7 + 7 (3,432 assignments: the Monte Carlo test) and teams of
    3 + 3 (the other 8 raters in no team: 20 assignments, tested exactly)."""
    rng = random.Random(5)
    raters = "rater_id,gender,team\n" + "".join(
        f"r{n},{'woman' if n % 2 else 'man'},{'a' if n <= 3 else 'b' if n <= 6 else ''}\n" for n in range(1, 15)
    )
    rows = [
        (f"u{unit}", f"r{n}", "safe", rng.choice(["yes", "no"]), "1") for unit in range(1, 21) for n in range(1, 15)
    ]
    questions = "question,level,labels,min,max,missing,wording\nsafe,nominal,yes|no,,,,Is the reply safe?\n"
    manifest = 'name: small_pool\ntitle: A small pool\nlicense: CC BY 4.0\ncitation: "Doe (2026)."\n'
    return write_dataset(folder, judgements=rows, manifest=manifest, questions=questions, raters=raters, units=None)


@pytest.fixture(scope="module")
def small_pool(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The small pool's study built, a judge of every unit loaded (team a's first rater's values) and
    built again, and the report written."""
    root = tmp_path_factory.mktemp("small-pool")
    db_path = root / "warehouse.duckdb"
    run_dwh(["ingest", "--dataset", str(small_pool_study(root / "study"))], db_path, check=True)
    run_dwh(["build"], db_path, check=True)
    values = query(
        db_path,
        "select unit_id, value from raw.dataset_judgements where dataset = 'small_pool' and rater_id = 'r1'",
    )
    judge = root / "judge.jsonl"
    judge.write_text(
        "".join(
            json.dumps({"judge": "sides_with_a", "dialogue_key": f"small_pool:{unit}", "question": "safe", "value": v})
            + "\n"
            for unit, v in values
        )
    )
    run_dwh(["ingest", "--judges", str(judge)], db_path, check=True)
    run_dwh(["build"], db_path, check=True)
    report = root / "report.html"
    run_dwh(["report", str(report)], db_path, check=True)
    return {"db": db_path, "report": report.read_text()}


@pytest.mark.slow
def test_a_small_pools_smallest_p_is_in_the_mart_and_the_report_says_0_05_cannot_be_reached(small_pool: dict) -> None:
    rows = query(
        small_pool["db"],
        "select group_dimension, group_value, min_attainable_p, least(alpha_p, xrr_p, gai_p) "
        "from marts.agreement where source = 'small_pool' order by 1, 2",
    )

    floors = {(dimension, value): floor for dimension, value, floor, _ in rows}
    assert floors == {
        ("all", "all"): None,
        ("gender", "man"): pytest.approx(2 / 1001),
        ("gender", "woman"): pytest.approx(2 / 1001),
        ("team", "a"): pytest.approx(0.1),
        ("team", "b"): pytest.approx(0.1),
    }
    assert all(p >= 0.1 for dimension, _, _, p in rows if dimension == "team")
    assert (
        "2 of these groups cannot reach p &lt; .05 by design (their smallest p is 0.1 or more)" in small_pool["report"]
    )


@pytest.mark.slow
def test_a_judges_alignment_in_a_small_pool_has_its_smallest_p_beside_it_and_the_report_names_it(
    small_pool: dict,
) -> None:
    """The judge's alignment with team a or b (3 + 3 raters: 20 assignments) is tested exactly and
    cannot reach 0.05; with a gender (7 + 7) its test draws P = 1000 shuffles."""
    rows = query(
        small_pool["db"],
        "select reference_dimension, reference_value, min_attainable_p, alignment_p "
        "from marts.judge_agreement where source = 'small_pool' and judge = 'sides_with_a' order by 1, 2",
    )

    floors = {(dimension, value): floor for dimension, value, floor, _ in rows}
    assert floors == {
        ("gender", "man"): pytest.approx(2 / 1001),
        ("gender", "woman"): pytest.approx(2 / 1001),
        ("raters", "all"): None,
        ("team", "a"): pytest.approx(0.1),
        ("team", "b"): pytest.approx(0.1),
    }
    team_p = [p for dimension, _, _, p in rows if dimension == "team"]
    assert len(team_p) == 2 and all(p >= 0.1 for p in team_p)
    assert (
        "Alignment tests that cannot reach p &lt; .05 by design (their raters allow too few distinct groupings, "
        "so 'not significant' says nothing about these judges): small_pool all, groups by team "
        "(smallest p 0.1): sides_with_a"
    ) in small_pool["report"]
