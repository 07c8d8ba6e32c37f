"""A dataset loaded with `dwh ingest --dataset` gets every mart through the same models as every
other dataset, with no code of its own (docs/DATASETS.md): its units, turns, raters and their
attributes, ratings, and every agreement figure with its Monte Carlo, its α at each level equal to
the `krippendorff` package's. One warehouse holds the sample's chatbot study and, where
../shared has them, the real ConvAbuse and MultiPICo through their recipes; generated datasets of
every level are built on their own (the build is what that test tests)."""

import json
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from krippendorff import alpha as package_alpha

from ingest.recipes import run_recipe
from sample_data.datasets import write_datasets_sample
from tests.helpers import PROJECT_ROOT, BuiltWarehouse, dbt_folders, ingest_and_build, query, run_dwh

pytestmark = pytest.mark.slow  # every case reads a build (its own, the module's or the session's)

SHARED_DATA = PROJECT_ROOT.parent / "shared" / "data"
STUDY = "chatbot_study"


@pytest.fixture(scope="module")
def datasets_build(tmp_path_factory: pytest.TempPathFactory) -> BuiltWarehouse:
    """The sample's chatbot study, and the real recipes where their releases are at hand, built."""
    root = tmp_path_factory.mktemp("datasets-build")
    write_datasets_sample(root / "sample")
    folders = [root / "sample" / "datasets" / STUDY]
    for recipe in ("convabuse", "multipico"):
        if (SHARED_DATA / recipe).is_dir():
            run_recipe(recipe, SHARED_DATA / recipe, root / recipe)
            folders.append(root / recipe)
    # the Monte Carlo for the study's questions (the real releases' α and groups are read, their
    # intervals are not: at their size they would hold a worker up for a minute); a dataset question
    # is a pattern the build accepts
    monte_carlo = {"agreement_monte_carlo_questions": [f"{STUDY}/*/*"]}
    return ingest_and_build(
        root,
        [arg for folder in folders for arg in ("--dataset", str(folder))],
        build_args=["--vars", json.dumps(monte_carlo)],
    )


def test_a_dataset_gets_every_mart(datasets_build: BuiltWarehouse) -> None:
    db = datasets_build.db_path
    [(n_units, n_raters, n_rows)] = query(
        db,
        f"select count(distinct unit_id), count(distinct rater_id), count(*) from raw.dataset_judgements "
        f"where dataset = '{STUDY}'",
    )
    assert query(db, f"select count(*), min(setting) from marts.dialogues where source = '{STUDY}'") == [
        (n_units, STUDY)
    ]
    assert query(db, f"select count(*) from marts.ratings where source = '{STUDY}'") == [(n_rows,)]
    assert query(db, f"select count(*), min(rater_role) from marts.raters where source = '{STUDY}'") == [
        (n_raters, f"{STUDY}_rater")
    ]
    [(n_turns,)] = query(db, f"select count(*) from marts.turns where source = '{STUDY}'")
    assert n_turns >= n_units  # every unit of the sample carries its turns
    for mart in ("rating_distributions", "rater_agreement", "rater_quality", "rater_consistency"):
        [(rows,)] = query(db, f"select count(*) from marts.{mart} where source = '{STUDY}'")
        assert rows > 0, mart


def test_a_datasets_binned_and_text_attributes_are_its_rater_groups(datasets_build: BuiltWarehouse) -> None:
    db = datasets_build.db_path
    attributes = query(
        db,
        f"select attribute, bool_and(is_banded), list(distinct value order by value) from marts.rater_attributes "
        f"where source = '{STUDY}' group by attribute order by attribute",
    )
    bins = query(db, f"select list(band order by band_order) from raw.dataset_bins where dataset = '{STUDY}'")
    assert [name for name, _, _ in attributes] == ["age", "country", "gender"]
    age_bands = next(values for name, _, values in attributes if name == "age")
    assert attributes[0][1] and set(age_bands) <= set(bins[0][0])
    groups = query(
        db,
        f"select distinct group_dimension, group_value from marts.agreement where source = '{STUDY}' "
        "and group_dimension <> 'all'",
    )
    assert set(groups) == {(name, value) for name, _, values in attributes for value in values}
    distributed = query(
        db, f"select distinct group_dimension from marts.group_rating_distributions where source = '{STUDY}'"
    )
    assert {name for (name,) in distributed} == {name for name, _, _ in attributes}


def test_every_alpha_of_a_dataset_has_its_interval_and_every_group_its_test(datasets_build: BuiltWarehouse) -> None:
    rows = query(
        datasets_build.db_path,
        f"select count(*), count(alpha), count(alpha_ci_low), count(*) filter (where group_dimension <> 'all' "
        f"and gai is not null), count(gai_p) filter (where gai is not null) from marts.agreement "
        f"where source = '{STUDY}' and n_units >= 10",
    )
    [(n, n_alpha, n_interval, n_gai, n_gai_p)] = rows
    assert n > 0 and n_alpha == n_interval == n and n_gai_p == n_gai > 0


def test_a_datasets_repeats_are_its_replications(datasets_build: BuiltWarehouse) -> None:
    [(n_repeats,)] = query(
        datasets_build.db_path,
        f"select count(*) from raw.dataset_judgements where dataset = '{STUDY}' and round_rank > 1",
    )
    assert n_repeats > 0
    replications = query(
        datasets_build.db_path,
        f"select distinct replication_a, replication_b from marts.replication_agreement where source = '{STUDY}'",
    )
    assert replications == [("first", "repeat")]


def expected_alpha(db: Path, source: str, question: str, level: str) -> float:
    """The `krippendorff` package's α of a dataset question, from its raw rows: each rater's
    first round on a unit, the value as its code (its label's place in the order, or its number)."""
    with duckdb.connect(str(db), read_only=True) as con:
        frame = con.execute(
            "select unit_id, rater_id, coalesce(label_position, value_number) as code, q.labels "
            "from raw.dataset_judgements as j inner join raw.dataset_questions as q using (dataset, question) "
            "where dataset = ? and question = ? and not is_missing "
            "qualify row_number() over (partition by unit_id, rater_id order by round_rank) = 1",
            [source, question],
        ).df()
    table = frame.pivot(index="rater_id", columns="unit_id", values="code").to_numpy(dtype=float)
    domain = list(range(1, len(frame["labels"].iloc[0]) + 1)) if level in ("nominal", "ordinal") else None
    return float(package_alpha(reliability_data=table, level_of_measurement=level, value_domain=domain))


def test_the_studys_alpha_at_each_level_equals_the_package(datasets_build: BuiltWarehouse) -> None:
    db = datasets_build.db_path
    questions = query(db, f"select question, level from raw.dataset_questions where dataset = '{STUDY}'")
    assert {level for _, level in questions} == {"nominal", "ordinal", "interval"}
    for question, level in questions:
        [(alpha,)] = query(
            db,
            f"select alpha from marts.agreement where source = '{STUDY}' and question = '{question}' "
            "and group_dimension = 'all'",
        )
        assert alpha == pytest.approx(expected_alpha(db, STUDY, question, level), abs=1e-9), question


def test_the_real_recipes_get_their_figures(datasets_build: BuiltWarehouse) -> None:
    found = dict(query(datasets_build.db_path, "select source, count(*) from marts.agreement group by source"))
    if not (SHARED_DATA / "convabuse").is_dir():
        pytest.skip(f"the real releases are not at {SHARED_DATA}")
    assert found.get("convabuse", 0) > 0 and found.get("multipico", 0) > 0
    [(alpha,)] = query(
        datasets_build.db_path,
        "select alpha from marts.agreement where source = 'convabuse' and question = 'severity' "
        "and group_dimension = 'all'",
    )
    assert alpha == pytest.approx(expected_alpha(datasets_build.db_path, "convabuse", "severity", "ordinal"), abs=1e-9)
    dimensions = query(
        datasets_build.db_path,
        "select distinct group_dimension from marts.agreement where source = 'multipico' order by 1",
    )
    assert ("age",) in dimensions and ("gender",) in dimensions


# ------------------------------------------------------------------------ generated datasets


@st.composite
def generated_dataset(draw: st.DrawFn, level: str) -> dict:
    """A dataset of one question at `level`: a few units and raters, each rater judging some
    units, at least two values apart so that α exists."""
    n_units = draw(st.integers(3, 8))
    n_raters = draw(st.integers(2, 5))
    labels = [f"l{k}" for k in range(draw(st.integers(2, 5)))]
    choices = (
        st.sampled_from(labels) if level in ("nominal", "ordinal") else st.integers(1 if level == "ratio" else -3, 9)
    )
    rows = [
        {"unit_id": f"u{unit}", "rater_id": f"r{rater}", "question": "q", "value": str(draw(choices))}
        for unit in range(n_units)
        for rater in range(n_raters)
        if rater < 2 or draw(st.booleans())
    ]
    rows[0]["value"], rows[1]["value"] = (labels[0], labels[1]) if level in ("nominal", "ordinal") else ("1", "2")
    return {
        "level": level,
        "labels": labels,
        "rows": rows,
        "format": draw(st.sampled_from(["csv", "jsonl", "parquet"])),
    }


def write_dataset(folder: Path, name: str, dataset: dict) -> Path:
    folder.mkdir(parents=True)
    (folder / "dataset.yml").write_text(f"name: {name}\ntitle: {name}\nlicense: CC0\ncitation: none\n")
    labels = "|".join(dataset["labels"]) if dataset["level"] in ("nominal", "ordinal") else ""
    (folder / "questions.csv").write_text(f"question,level,labels\nq,{dataset['level']},{labels}\n")
    rows = dataset["rows"]
    if dataset["format"] == "jsonl":
        (folder / "judgements.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    else:
        csv_text = "unit_id,rater_id,question,value\n" + "".join(
            f"{r['unit_id']},{r['rater_id']},q,{r['value']}\n" for r in rows
        )
        (folder / "judgements.csv").write_text(csv_text)
        if dataset["format"] == "parquet":
            with duckdb.connect() as con:
                con.execute(
                    f"copy (select * from read_csv('{folder / 'judgements.csv'}', all_varchar=true)) "
                    f"to '{folder / 'judgements.parquet'}' (format parquet)"
                )
            (folder / "judgements.csv").unlink()
    return folder


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(datasets=st.tuples(*(generated_dataset(level) for level in ("nominal", "ordinal", "interval", "ratio"))))
def test_generated_datasets_alpha_equals_the_package_at_every_level(
    datasets: tuple[dict, ...], tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("generated")
    folders = [write_dataset(root / d["level"], f"gen_{d['level']}", d) for d in datasets]
    # the figures' mart and what it reads: α from the files to `agreement` is this test's subject
    built = ingest_and_build(
        root,
        [arg for folder in folders for arg in ("--dataset", str(folder))],
        build_args=["--select", "+agreement", "--indirect-selection", "cautious"],
    )
    for dataset in datasets:
        source = f"gen_{dataset['level']}"
        [(alpha,)] = query(
            built.db_path, f"select alpha from marts.agreement where source = '{source}' and group_dimension = 'all'"
        )
        assert alpha == pytest.approx(expected_alpha(built.db_path, source, "q", dataset["level"]), abs=1e-9), source


# ------------------------------------------------------- a release in the long form, beside its lander


def test_duo_in_the_long_form_has_the_figures_of_its_own_lander(real_duo_build: BuiltWarehouse, tmp_path: Path) -> None:
    """The real DUO release's objective evaluations written as a dataset (units the dialogues, scope
    the language and setting, the annotators as raters, each metric an interval question from 1 to
    5) and loaded beside the built-in DUO: every α, with its units and values, is DUO's own."""
    db = real_duo_build.copy_to(tmp_path / "db")
    folder = tmp_path / "duo_long"
    folder.mkdir()
    (folder / "dataset.yml").write_text("name: duo_long\ntitle: DUO, long form\nlicense: as DUO\ncitation: DUO\n")
    metrics = [
        metric for (metric,) in query(db, "select distinct question from marts.ratings where rating_kind = 'objective'")
    ]
    (folder / "questions.csv").write_text(
        "question,level,min,max\n" + "".join(f"{metric},interval,1,5\n" for metric in metrics)
    )
    with duckdb.connect(str(db)) as con:
        con.execute(
            f"""copy (
                select ratings.dialogue_key as unit_id, ratings.rater_key as rater_id, ratings.question,
                    cast(ratings.value_numeric as integer) as value
                from marts.ratings where rating_kind = 'objective'
            ) to '{folder / "judgements.csv"}' (header)"""
        )
        con.execute(
            f"""copy (
                select dialogue_key as unit_id, language || ':' || setting as scope, language
                from marts.dialogues where source = 'duo'
            ) to '{folder / "units.csv"}' (header)"""
        )
    run_dwh(["ingest", "--dataset", str(folder)], db, check=True)
    run_dwh(["build"], db, check=True, env_overrides=dbt_folders(tmp_path / "dbt"))
    figures = """
        select scope, question, n_units, n_values, alpha from marts.agreement
        where source = '{source}' and group_dimension = 'all' {kind} order by scope, question"""
    builtin = query(db, figures.format(source="duo", kind="and rating_kind = 'objective'"))
    long_form = query(db, figures.format(source="duo_long", kind=""))
    assert len(builtin) == len(long_form) > 0
    for ours, theirs in zip(long_form, builtin, strict=True):
        assert ours[:4] == theirs[:4] and ours[4] == pytest.approx(theirs[4], abs=1e-9), theirs
