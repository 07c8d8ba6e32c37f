"""The replacement marts as a user gets them: the sample's chatbot study loaded as a dataset, two
judges of its units (one gives each unit the raters' most frequent label or their mean, one answers
at random) loaded with `dwh ingest --judges`, built with `dwh build`. Every verdict and tested rater
equals the paper's definition computed in the test from `marts.ratings`; ε comes from the default,
from dataset.yml and from the build var; a rater with fewer units than the minimum leaves the
verdict null; changing the replacement's vars changes no other judge figure; a bad ε is one line."""

import json
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from sample_data.datasets import write_datasets_sample
from tests.figure_checks import same_figure
from tests.helpers import dbt_folders, query, run_dwh
from tests.replacement_reference import paper_alt_test

pytestmark = pytest.mark.slow

STUDY = "chatbot_study"
JUDGES = ("judge_majority", "judge_coin")
MIN_UNITS = 10
LABELS = {"safe": ["yes", "no", "unsure"], "quality": ["bad", "poor", "fair", "good", "excellent"]}
LEVELS = {"safe": "nominal", "quality": "ordinal", "engagement": "interval"}


def first_values(db: Path) -> dict[str, dict[str, dict[str, float | str]]]:
    """question -> rater_key -> unit -> the rater's first value (a label's text, or a number): its
    first round that is not missing, as `agreement` counts it."""
    values: dict = {}
    for question, rater, unit, label, number in query(
        db,
        "select question, rater_key, dialogue_key, value_label, value_numeric from marts.ratings "
        f"where source = '{STUDY}' and coalesce(value_label, value_numeric::varchar) is not null "
        "qualify row_number() over (partition by question, rater_key, dialogue_key order by phase::int) = 1",
    ):
        values.setdefault(question, {}).setdefault(rater, {})[unit] = label if number is None else number
    return values


def judge_rows(values: dict) -> list[dict]:
    rng = random.Random(64)
    rows = []
    for question, raters in values.items():
        units = sorted({unit for of_rater in raters.values() for unit in of_rater})
        for unit in units:
            given = [of_rater[unit] for of_rater in raters.values() if unit in of_rater]
            if question == "engagement":
                majority, coin = round(sum(given) / len(given)), rng.randint(0, 100)
            else:
                majority, coin = Counter(given).most_common(1)[0][0], rng.choice(LABELS[question])
            for judge, value in zip(JUDGES, (majority, coin)):
                rows.append({"judge": judge, "dialogue_key": unit, "question": question, "value": value})
    return rows


# the judges' marts: what the builds given vars rebuild, with everything they read
JUDGE_MARTS = ("judge_agreement", "judge_comparison", "judge_replacement", "judge_replacement_raters")


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The study built with the default ε and minimum units, then with `alt_test_epsilon: 0.25` in its
    dataset.yml and `alt_test_min_units: 10`, then with the var `alt_test_epsilon: 0.05` too: a copy
    of the warehouse after each build."""
    root = tmp_path_factory.mktemp("replacement-marts")
    write_datasets_sample(root / "sample")
    folder = root / "sample" / "datasets" / STUDY
    db, env = root / "warehouse.duckdb", dbt_folders(root)
    run_dwh(["ingest", "--dataset", str(folder)], db, check=True, env_overrides=env)
    run_dwh(["build"], db, check=True, env_overrides=env)
    values = first_values(db)
    judges_file = root / "judges.jsonl"
    judges_file.write_text("".join(json.dumps(row) + "\n" for row in judge_rows(values)))
    run_dwh(["ingest", "--judges", str(judges_file)], db, check=True, env_overrides=env)
    copies = {"values": values, "root": root}

    def built(name: str, *args: str) -> None:
        run_dwh(["build", *args], db, check=True, env_overrides=env)
        copies[name] = Path(shutil.copyfile(db, root / f"{name}.duckdb"))

    built("default")
    manifest = folder / "dataset.yml"
    manifest.write_text(manifest.read_text() + "alt_test_epsilon: 0.25\n")
    run_dwh(["ingest", "--dataset", str(folder)], db, check=True, env_overrides=env)
    # builds given vars run as given (no plan): the judges' marts and what they read, every test of them
    judges_lineage = ["--select", *(f"+{mart}" for mart in JUDGE_MARTS)]
    built("from dataset.yml", *judges_lineage, "--vars", json.dumps({"alt_test_min_units": MIN_UNITS}))
    built(
        "from the var",
        *judges_lineage,
        "--vars",
        json.dumps({"alt_test_min_units": MIN_UNITS, "alt_test_epsilon": 0.05}),
    )
    return copies


def verdicts(db: Path) -> dict[tuple, tuple]:
    return {
        row[:4]: row[4:]
        for row in query(
            db,
            "select judge, question, reference_dimension, reference_value, epsilon, n_units, n_raters, "
            "n_raters_tested, winning_rate, advantage_probability, replaces from marts.judge_replacement",
        )
    }


def test_default_epsilon_and_too_few_units_give_null_verdicts(builds: dict) -> None:
    """Each rater rated about 20 of the 40 units: below the default 30, nobody is tested; the crowd's
    ε is 0.10; the one expert (one value per unit) has no row."""
    rows = verdicts(builds["default"])
    assert rows and {key[2] for key in rows} >= {"raters", "gender"} and "expert" not in {key[2] for key in rows}
    for epsilon, n_units, n_raters, tested, rate, advantage, replaces in rows.values():
        assert epsilon == 0.1 and n_units > 0 and n_raters >= 2
        assert (tested, rate, advantage, replaces) == (0, None, None, None)
    assert query(builds["default"], "select count(*) from marts.judge_replacement_raters") == [(0,)]


def test_epsilon_from_dataset_yml_and_from_the_var(builds: dict) -> None:
    assert {row[0] for row in verdicts(builds["from dataset.yml"]).values()} == {0.25}
    assert {row[0] for row in verdicts(builds["from the var"]).values()} == {0.05}
    assert {
        e for (e,) in query(builds["from the var"], "select distinct epsilon from marts.judge_replacement_raters")
    } == {0.05}


@pytest.mark.parametrize("build", ["from dataset.yml", "from the var"])
def test_every_verdict_and_rater_equals_the_papers_definition(builds: dict, build: str) -> None:
    db, values = builds[build], builds["values"]
    epsilon = 0.25 if build == "from dataset.yml" else 0.05
    judged: dict = {}
    for judge, unit, question, value in query(
        db,
        "select judge, dialogue_key, question, coalesce(value_text, value_number::varchar) from raw.judge_judgements",
    ):
        judged.setdefault((judge, question), {})[unit] = value
    rows = verdicts(db)
    raters_rows = {
        row[:3]: row[3:]
        for row in query(
            db,
            "select judge, question, rater_key, n_units, judge_advantage, rater_advantage, p_value, judge_wins "
            "from marts.judge_replacement_raters where reference_dimension = 'raters'",
        )
    }
    replaced = 0
    for judge in JUDGES:
        for question, raters in values.items():

            def on_scale(value: object, question: str = question) -> float:
                if question == "quality":
                    return float(LABELS["quality"].index(value) + 1)
                return float(value) if question == "engagement" else LABELS["safe"].index(value)

            expected = paper_alt_test(
                {rater: {u: on_scale(v) for u, v in of_rater.items()} for rater, of_rater in raters.items()},
                {u: on_scale(v) for u, v in judged[(judge, question)].items()},
                LEVELS[question],
                epsilon,
                MIN_UNITS,
            )
            mine = rows[(judge, question, "raters", "all")]
            verdict = expected["verdict"]
            assert mine[1:4] == (verdict["n_units"], verdict["n_raters"], verdict["n_raters_tested"])
            assert same_figure(verdict["winning_rate"], mine[4]) and same_figure(
                verdict["advantage_probability"], mine[5]
            )
            assert mine[6] == verdict["replaces"]
            replaced += bool(mine[6])
            for rater, figures in expected["raters"].items():
                n_units, judge_advantage, rater_advantage, p_value, wins = raters_rows[(judge, question, rater)]
                assert n_units == figures["n_units"] and wins == figures["wins"]
                assert same_figure(figures["judge_advantage"], judge_advantage)
                assert same_figure(figures["rater_advantage"], rater_advantage)
                assert same_figure(figures["p_value"], p_value)
    assert replaced >= 1  # the majority replaces the raters somewhere: a test of more than nulls


def test_the_majority_replaces_the_raters_and_the_coin_does_not(builds: dict) -> None:
    """With the study's ε (0.25, dataset.yml) the raters' majority replaces them on every question and
    a coin on none; with ε 0.05 (the var) the majority, on some 20 units per rater, wins against fewer."""
    generous, strict = verdicts(builds["from dataset.yml"]), verdicts(builds["from the var"])
    majority = {q: generous[("judge_majority", q, "raters", "all")] for q in LEVELS}
    coin = {q: generous[("judge_coin", q, "raters", "all")] for q in LEVELS}
    assert all(row[6] for row in majority.values()), majority
    assert not any(row[6] for row in coin.values()), coin
    for question in LEVELS:
        assert strict[("judge_majority", question, "raters", "all")][4] <= majority[question][4]
        assert majority[question][5] > coin[question][5]  # the advantage probability ranks them


def test_the_replacement_vars_change_no_other_judge_figure(builds: dict) -> None:
    """ε and the minimum units are the replacement's alone: judge_agreement and judge_comparison keep
    every row, and int_judges__agreement computed none of its slots again."""
    for table in ("marts.judge_agreement", "marts.judge_comparison", "intermediate.int_judges__agreement"):
        sql = f"select * from {table} order by all"
        assert query(builds["default"], sql) == query(builds["from the var"], sql), table


def test_a_bad_epsilon_is_one_line_naming_dataset_yml_or_the_var(builds: dict, tmp_path: Path) -> None:
    folder = Path(shutil.copytree(builds["root"] / "sample" / "datasets" / STUDY, tmp_path / STUDY))
    manifest = folder / "dataset.yml"
    manifest.write_text(manifest.read_text().replace("alt_test_epsilon: 0.25", "alt_test_epsilon: 1.5"))
    db = Path(shutil.copyfile(builds["from the var"], tmp_path / "warehouse.duckdb"))
    refused = run_dwh(["ingest", "--dataset", str(folder)], db)
    assert refused.returncode != 0
    assert refused.stderr.strip().count("\n") == 0 and "dataset.yml: alt_test_epsilon 1.5" in refused.stderr
    for bad in ("abc", 1):
        refused = run_dwh(["build", "--vars", json.dumps({"alt_test_epsilon": bad})], db)
        assert refused.returncode != 0
        assert refused.stderr.strip().count("\n") == 0 and "var alt_test_epsilon" in refused.stderr, refused.stderr
