"""The memo's promises without a build (`agreement_core.memo`): a slot's fingerprint holds exactly
what its figures are computed from, so stored rows are reused when and only when a computation
would give them again. The builds that reuse them: tests/building/test_build_computes_once.py."""

import duckdb
import numpy as np
import pandas as pd
import pytest

from agreement_core import memo
from agreement_core.group_figures import Memberships, QuestionValues, as_result, inputs_of, question_rows
from agreement_core.judge_figures import judge_comparison, judges
from agreement_core.judge_figures.judge_references import JudgedQuestion
from agreement_core.questions import Question
from agreement_core.settings import MonteCarloSettings

SETTINGS = MonteCarloSettings(True, 11, 60, 60, ("*",))
QUESTION = Question(1, "dices", "350", "safety", "Q_overall", np.array([0, 1, 2]), "nominal")


def values_frame(seed: int = 0, n_units: int = 12, n_raters: int = 9) -> pd.DataFrame:
    """unit_id, rater_id, value_code: every rater on every unit, some values missing; ids as a
    warehouse numbers them (rater ids 101…, unit ids from 500)."""
    rng = np.random.default_rng(seed)
    units, raters = np.meshgrid(np.arange(500, 500 + n_units), np.arange(101, 101 + n_raters), indexing="ij")
    frame = pd.DataFrame(
        {"unit_id": units.ravel(), "rater_id": raters.ravel(), "value_code": rng.integers(0, 3, units.size)}
    )
    return frame[rng.random(len(frame)) > 0.15].reset_index(drop=True)


def groups_frame(rater_ids: np.ndarray, first_group_id: int = 1) -> pd.DataFrame:
    """Everyone in `all`, and a gender for each rater (alternating)."""
    genders = np.where(np.arange(len(rater_ids)) % 2 == 0, "Man", "Woman")
    return pd.concat(
        [
            pd.DataFrame(
                {"group_id": first_group_id, "group_dimension": "all", "group_value": "all", "rater_id": rater_ids}
            ),
            pd.DataFrame(
                {
                    "group_id": first_group_id + 1 + (genders == "Woman"),
                    "group_dimension": "gender",
                    "group_value": genders,
                    "rater_id": rater_ids,
                }
            ),
        ],
        ignore_index=True,
    )


def fingerprint_of(values: pd.DataFrame, groups: pd.DataFrame, settings: MonteCarloSettings = SETTINGS) -> str:
    question_values = QuestionValues.of(QUESTION, values)
    return memo.fingerprint(inputs_of(question_values, Memberships.of(question_values, groups), settings))


def test_a_question_s_fingerprint_ignores_row_order_and_the_warehouses_numbering() -> None:
    values = values_frame()
    groups = groups_frame(np.arange(101, 110))
    shuffled = values.sample(frac=1.0, random_state=3)
    # another source's reload renumbers units, raters and groups, keeping their order
    renumbered = values.assign(unit_id=values["unit_id"] + 1000, rater_id=values["rater_id"] * 2)
    renumbered_groups = groups_frame(np.arange(101, 110) * 2, first_group_id=40)
    assert fingerprint_of(shuffled, groups) == fingerprint_of(values, groups)
    assert fingerprint_of(renumbered, renumbered_groups) == fingerprint_of(values, groups)


@pytest.mark.parametrize(
    "change",
    ["one value", "one value fewer", "one rater in another group", "another seed", "more shuffles", "no Monte Carlo"],
)
def test_a_question_s_fingerprint_changes_with_anything_its_figures_read(change: str) -> None:
    values, groups, settings = values_frame(), groups_frame(np.arange(101, 110)), SETTINGS
    if change == "one value":
        values.loc[0, "value_code"] = (values.loc[0, "value_code"] + 1) % 3
    elif change == "one value fewer":
        values = values.iloc[1:]
    elif change == "one rater in another group":
        moved = (groups["group_dimension"] == "gender") & (groups["rater_id"] == 101)
        groups.loc[moved, ["group_id", "group_value"]] = [3, "Woman"]
    else:
        settings = {
            "another seed": MonteCarloSettings(True, 12, 60, 60, ("*",)),
            "more shuffles": MonteCarloSettings(True, 11, 60, 61, ("*",)),
            "no Monte Carlo": MonteCarloSettings(False, 11, 60, 60, ("*",)),
        }[change]
    assert fingerprint_of(values, groups, settings) != fingerprint_of(values_frame(), groups_frame(np.arange(101, 110)))


SLOT = ["source", "scope", "rating_kind", "question"]


def test_stored_rows_are_reused_only_under_their_fingerprint() -> None:
    values, groups = QuestionValues.of(QUESTION, values_frame()), groups_frame(np.arange(101, 110))
    first = as_result([question_rows(values, groups, SETTINGS, memo.Memo.of(None, SLOT))])
    assert first[memo.FINGERPRINT].nunique() == 1 and first["gai_p"].notna().any()
    stored = memo.Memo.of(first.assign(computed_at=pd.Timestamp("2001-01-01")), SLOT)
    reused = question_rows(values, groups, SETTINGS, stored)
    assert (reused["computed_at"] == pd.Timestamp("2001-01-01")).all()  # reused, not computed
    again = question_rows(values, groups, MonteCarloSettings(True, 12, 60, 60, ("*",)), stored)
    assert (again["computed_at"] != pd.Timestamp("2001-01-01")).all()
    assert (again[memo.FINGERPRINT] != first[memo.FINGERPRINT]).all()


def test_a_slots_digest_reads_its_rows_as_the_warehouse_gives_them_back() -> None:
    """The digest of the rows computed is the digest of those rows as the model's result holds them
    and as DuckDB reads them back (types widened, rows in another order, nulls as nulls)."""
    values, groups = QuestionValues.of(QUESTION, values_frame()), groups_frame(np.arange(101, 110))
    computed = question_rows(values, groups, SETTINGS, memo.Memo.of(None, SLOT))
    result = as_result([computed])
    [digest] = result[memo.ROWS_DIGEST].unique()
    with duckdb.connect() as con:
        con.register("result", result)
        round_trip = con.sql("select * from result order by random()").df()
    assert memo.rows_digest(result) == digest == memo.rows_digest(round_trip)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda rows: rows.iloc[1:],  # a row deleted by hand
        lambda rows: rows.assign(alpha=rows["alpha"].where(rows.index != 0, -5.0)),  # a figure edited
        lambda rows: rows.assign(n_units=0, alpha=np.nan),  # what a slot with rows missing published
        lambda rows: rows.assign(rows_digest=None),  # the digest itself cleared
    ],
    ids=["row-deleted", "figure-edited", "figures-zeroed", "digest-cleared"],
)
def test_a_slot_whose_stored_rows_no_longer_match_their_digest_is_computed_again_and_said_so(
    tamper, capfd: pytest.CaptureFixture
) -> None:
    values, groups = QuestionValues.of(QUESTION, values_frame()), groups_frame(np.arange(101, 110))
    first = as_result([question_rows(values, groups, SETTINGS, memo.Memo.of(None, SLOT))])
    stored = memo.Memo.of(tamper(first.assign(computed_at=pd.Timestamp("2001-01-01"))), SLOT, model="figures")

    again = as_result([question_rows(values, groups, SETTINGS, stored)])

    assert (again["computed_at"] != pd.Timestamp("2001-01-01")).all()  # computed, not reused
    columns = [column for column in again.columns if column != "computed_at"]
    pd.testing.assert_frame_equal(again[columns], first[columns])
    [line] = capfd.readouterr().err.splitlines()
    assert line.startswith("memo: figures dices/350/safety/Q_overall: its stored rows no longer match their digest")
    assert line.endswith("edited or deleted since they were computed): computed again")


def test_the_stale_slots_are_every_slot_without_a_memo_and_those_it_does_not_hold_with_one() -> None:
    taken = []

    def inputs(value: int) -> list[object]:
        taken.append(value)
        return [np.arange(value)]

    slots = {("a",): lambda: inputs(1), ("b",): lambda: inputs(2), ("c",): lambda: inputs(3)}
    assert memo.stale_slots(None, slots) == ({}, [("a",), ("b",), ("c",)])
    assert taken == []  # no memo: no fingerprint taken
    held = pd.DataFrame({"slot": ["a", "b"], memo.FINGERPRINT: [memo.fingerprint([np.arange(1)]), "other"]})
    held[memo.ROWS_DIGEST] = [memo.rows_digest(held.iloc[[row]]) for row in range(len(held))]
    fingerprints, stale = memo.stale_slots(memo.Memo.of(held, ["slot"]), slots)
    assert stale == [("b",), ("c",)]
    assert fingerprints == {slot: memo.fingerprint(of()) for slot, of in slots.items()}


def judged(judge_values: pd.DataFrame) -> JudgedQuestion:
    """DICES-like references (every rater on every unit, genders) and the given judges' values."""
    values = values_frame(seed=5)
    references = values.assign(ceiling_rater=values["rater_id"], reference="raters")
    return JudgedQuestion(QUESTION, references, judge_values, groups_frame(np.arange(101, 110)))


def judge_values(judge: str, seed: int, units: range = range(500, 512)) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"judge": judge, "unit_id": list(units), "value": rng.integers(0, 3, len(units)).astype(float)})


def test_a_judge_s_figures_and_fingerprint_do_not_depend_on_the_other_judges() -> None:
    alone = judged(judge_values("judge_a", 1))
    beside = judged(pd.concat([judge_values("judge_a", 1), judge_values("judge_b", 2, range(500, 520))]))
    rows_alone = judges.judged_question_rows(alone, SETTINGS, memo.Memo.of(None, judges.JUDGE_SLOT))
    rows_beside = judges.judged_question_rows(beside, SETTINGS, memo.Memo.of(None, judges.JUDGE_SLOT))
    # the judges' alignment tests run together (`judges.judged_question_rows`), on another unit axis
    assert rows_alone["alignment_p"].notna().any()
    of_a = rows_beside[rows_beside["judge"] == "judge_a"].reset_index(drop=True)
    columns = [c for c in rows_alone.columns if c != memo.COMPUTED_AT]
    pd.testing.assert_frame_equal(rows_alone[columns], of_a[columns])


def test_a_pair_s_figures_do_not_depend_on_the_other_judges() -> None:
    """The pairs of a question share their paired bootstrap (`judge_comparison.PairedBootstrap`): a
    pair's rows are the same computed alone, beside a judge of the same units, and beside a judge of
    other units (whose pairs resample other units)."""
    pair = [judge_values("judge_a", 1), judge_values("judge_b", 2)]
    by_pair = judge_comparison.PAIR_SLOT

    def rows_of_a_and_b(*others: pd.DataFrame) -> pd.DataFrame:
        rows = judge_comparison.as_result(
            judge_comparison.judged_question_rows(
                judged(pd.concat([*pair, *others])), SETTINGS, memo.Memo.of(None, by_pair)
            )
        )
        of_pair = rows[(rows["judge_a"] == "judge_a") & (rows["judge_b"] == "judge_b")]
        return of_pair.drop(columns=[memo.COMPUTED_AT]).reset_index(drop=True)

    alone = rows_of_a_and_b()
    assert alone["xrr_difference_ci_low"].notna().any()
    pd.testing.assert_frame_equal(alone, rows_of_a_and_b(judge_values("judge_c", 3)))
    pd.testing.assert_frame_equal(alone, rows_of_a_and_b(judge_values("judge_c", 3, range(505, 515))))


def test_a_pair_of_judges_is_computed_once_and_a_newcomer_s_pairs_only() -> None:
    two = judged(pd.concat([judge_values("judge_a", 1), judge_values("judge_b", 2)]))
    stored_rows = judge_comparison.as_result(
        judge_comparison.judged_question_rows(two, SETTINGS, memo.Memo.of(None, judge_comparison.PAIR_SLOT))
    )
    earlier = pd.Timestamp("2001-01-01")
    stored = memo.Memo.of(stored_rows.assign(computed_at=earlier), judge_comparison.PAIR_SLOT)
    three = judged(pd.concat([judge_values("judge_a", 1), judge_values("judge_b", 2), judge_values("judge_c", 3)]))
    rows = judge_comparison.as_result(judge_comparison.judged_question_rows(three, SETTINGS, stored))
    reused = rows["computed_at"] == earlier
    assert set(zip(rows.loc[reused, "judge_a"], rows.loc[reused, "judge_b"])) == {("judge_a", "judge_b")}
    assert set(zip(rows.loc[~reused, "judge_a"], rows.loc[~reused, "judge_b"])) == {
        ("judge_a", "judge_c"),
        ("judge_b", "judge_c"),
    }
